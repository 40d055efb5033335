/**
 * Kubernetes version priority (as in apimachinery's `version.CompareKubeAwareVersionStrings`):
 * GA before beta before alpha, higher major first, then higher minor (`v1beta2` before `v1beta1`);
 * names that do not look like Kubernetes versions come last, alphabetically. The first version of a
 * group in this order is its preferred version.
 */
const kubeVersionPattern = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

interface ParsedVersion {
  major: number;
  /** 2 = GA, 1 = beta, 0 = alpha. */
  stability: number;
  minor: number;
}

function parseKubeVersion(version: string): ParsedVersion | undefined {
  const match = kubeVersionPattern.exec(version);
  if (!match) return undefined;
  const [, major, stage, minor] = match;
  const stability = stage === undefined ? 2 : stage === "beta" ? 1 : 0;
  return { major: Number(major), stability, minor: minor === undefined ? 0 : Number(minor) };
}

/** A sort comparator: negative when `a` has the higher priority. */
export function compareKubeVersions(a: string, b: string): number {
  const parsedA = parseKubeVersion(a);
  const parsedB = parseKubeVersion(b);
  if (parsedA && parsedB) {
    return (
      parsedB.stability - parsedA.stability || parsedB.major - parsedA.major || parsedB.minor - parsedA.minor
    );
  }
  if (parsedA) return -1;
  if (parsedB) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
