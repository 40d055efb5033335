/**
 * KubeVirt's version.Info: what virt-api's `/apis/subresources.kubevirt.io/v1/version` answers and
 * `virtctl version` prints for the client and the server. kubevirt-ts fills it with its version
 * from the package.json of the checkout or image the calling file runs from, and the Node runtime.
 */
import { readFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findRepositoryRoot } from "../crd/repository-root.js";

export interface VersionInfo {
  readonly gitVersion: string;
  readonly gitCommit: string;
  readonly gitTreeState: string;
  readonly buildDate: string;
  readonly goVersion: string;
  readonly compiler: string;
  readonly platform: string;
}

/** Node's architecture names as Go spells them, so platforms read as KubeVirt's do. */
const GO_ARCH: Readonly<Record<string, string>> = {
  x64: "amd64",
  arm64: "arm64",
  s390x: "s390x",
  ppc64: "ppc64le",
};

/** kubevirt-ts's version (`v0.0.0` when no package.json is found above this file). */
export function readVersionInfo(): VersionInfo {
  return {
    gitVersion: `v${packageVersion()}`,
    gitCommit: "",
    gitTreeState: "",
    buildDate: "",
    goVersion: `node ${process.version}`,
    compiler: "tsc",
    platform: `${platform()}/${GO_ARCH[arch()] ?? arch()}`,
  };
}

function packageVersion(): string {
  try {
    const root = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown };
    return typeof manifest.version === "string" ? manifest.version : "0.0.0";
  } catch {
    // An image or copy without the package manifest still answers, with a version that says it is unknown.
    return "0.0.0";
  }
}
