/**
 * Where the kubeconfig comes from, in kubectl's order (client-go's clientcmd loading rules):
 * `--kubeconfig` alone when given; else the files of `KUBECONFIG` that exist, merged; else
 * `~/.kube/config` when it exists; else the pod's service account (in-cluster) when
 * KUBERNETES_SERVICE_HOST is set and no context was asked for. Pure: the caller says which files exist.
 */
import { delimiter, join } from "node:path";

export type KubeConfigSource =
  | { readonly kind: "files"; readonly paths: readonly string[] }
  | { readonly kind: "in-cluster" }
  | { readonly kind: "none"; readonly tried: readonly string[] };

export interface SourceInputs {
  /** The `--kubeconfig` flag. */
  readonly flag: string | undefined;
  /** The `--context` flag: a context can only be picked from a file. */
  readonly context: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string | undefined;
  readonly exists: (path: string) => boolean;
}

export function chooseKubeConfigSource(inputs: SourceInputs): KubeConfigSource {
  // An explicit file must exist: reading it reports the error (kubectl does the same).
  if (inputs.flag) return { kind: "files", paths: [inputs.flag] };
  const tried: string[] = [];
  const fromEnv = (inputs.env.KUBECONFIG ?? "").split(delimiter).filter((path) => path !== "");
  if (fromEnv.length > 0) {
    const existing = [...new Set(fromEnv)].filter((path) => inputs.exists(path));
    if (existing.length > 0) return { kind: "files", paths: existing };
    tried.push(...fromEnv);
  } else if (inputs.home) {
    const homeConfig = join(inputs.home, ".kube", "config");
    if (inputs.exists(homeConfig)) return { kind: "files", paths: [homeConfig] };
    tried.push(homeConfig);
  }
  if (inputs.env.KUBERNETES_SERVICE_HOST && inputs.context === undefined) return { kind: "in-cluster" };
  return { kind: "none", tried };
}
