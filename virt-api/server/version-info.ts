/**
 * `GET /apis/subresources.kubevirt.io/v1/version`: KubeVirt's version.Info shape (what `virtctl
 * version` prints as the server version), filled with kubevirt-ts's version from its
 * package.json and the runtime it runs on.
 */
import { readFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";

export interface VersionInfo {
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const GO_ARCH: Readonly<Record<string, string>> = {
  x64: "amd64",
  arm64: "arm64",
  s390x: "s390x",
  ppc64: "ppc64le",
};

/** The version of the kubevirt-ts checkout or image this file runs from (`v0.0.0` when none is found). */
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
    // An image without the package manifest still answers, with a version that says it is unknown.
    return "0.0.0";
  }
}
