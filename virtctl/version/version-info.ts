/**
 * KubeVirt's version.Info, which `virtctl version` prints for the client and the server
 * (virt-api's `/version`), in KubeVirt's Go `%#v` shape: `version.Info{GitVersion:"v1.0.0", ...}`.
 * The client's comes from the package.json of the kubevirt-ts checkout or package virtctl runs from.
 */
import { readFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";

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

export function clientVersionInfo(): VersionInfo {
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

/** `version.Info{GitVersion:"v0.1.0", GitCommit:"", ...}`: the fields in the order given, capitalised. */
export function formatVersionInfo(info: Readonly<Record<string, unknown>>): string {
  const fields = Object.entries(info).map(([key, value]) => {
    const name = key.charAt(0).toUpperCase() + key.slice(1);
    return `${name}:${typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value ?? null)}`;
  });
  return `version.Info{${fields.join(", ")}}`;
}

function packageVersion(): string {
  try {
    const root = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown };
    return typeof manifest.version === "string" ? manifest.version : "0.0.0";
  } catch {
    // Copied somewhere without its package.json: a version that says it is unknown.
    return "0.0.0";
  }
}
