import { lstatSync, mkdirSync, rmSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/** A claim's identity as its directory name is built from it (all API-validated DNS names). */
export interface ClaimIdentity {
  uid: string;
  namespace: string;
  name: string;
}

/** What the API validated: a uid, a namespace (DNS label) and a name (DNS subdomain). */
const SAFE_PART = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;

/**
 * The directories of provisioned volumes, each a direct child `pvc-<uid>_<namespace>_<name>` of
 * one base directory (the hostPath the provisioner's pod mounts). Nothing outside that set is
 * ever made or removed: a name is built only from parts that pass the API's name rules, and a
 * path to remove must be such a child, checked after resolving it.
 */
export class VolumeDirectories {
  readonly base: string;

  constructor(base: string) {
    if (!isAbsolute(base)) throw new Error(`the base directory must be an absolute path, not "${base}"`);
    this.base = resolve(base);
  }

  /** The directory of a claim's volume (not created). */
  pathOf(claim: ClaimIdentity): string {
    for (const [what, value] of Object.entries(claim)) {
      if (!SAFE_PART.test(value) || value.includes("..")) {
        throw new Error(`the claim's ${what} "${value}" cannot be part of a directory name`);
      }
    }
    return join(this.base, `pvc-${claim.uid}_${claim.namespace}_${claim.name}`);
  }

  /** Makes the claim's directory (again, after a crash: it may exist). Returns its path. */
  ensure(claim: ClaimIdentity): string {
    const path = this.pathOf(claim);
    // The base is the pod's hostPath (DirectoryOrCreate): its absence means the mount is wrong,
    // not that a tree should be made, so only the volume's own directory is created.
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new Error(`cannot make the volume directory ${path}`, { cause: error });
      }
    }
    if (!lstatSync(path).isDirectory()) throw new Error(`${path} exists and is not a directory`);
    return path;
  }

  /** Why `path` may not be removed, or undefined when it is a volume directory of this base. */
  refusalToRemove(path: string): string | undefined {
    if (!isAbsolute(path)) return `"${path}" is not an absolute path`;
    const resolved = resolve(path);
    if (dirname(resolved) !== this.base) return `"${path}" is not directly inside ${this.base}`;
    if (!basename(resolved).startsWith("pvc-")) return `"${path}" is not a pvc-* directory`;
    return undefined;
  }

  /**
   * Removes a volume's directory and everything in it; an absent one is fine (a crash after the
   * removal, before the PV's deletion). A symlink there is removed itself, never followed.
   */
  remove(path: string): void {
    const refusal = this.refusalToRemove(path);
    if (refusal) throw new Error(`refusing to remove ${refusal}`);
    rmSync(resolve(path), { recursive: true, force: true });
  }
}
