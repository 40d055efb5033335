import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** kubelet's atomic writer: the visible names point through this link to the current payload. */
export const DATA_DIR_LINK = "..data";

/**
 * Writes a ConfigMap, Secret, downward API or projected volume as kubelet's atomic writer lays it
 * out: the files in a timestamped directory `..<time>`, the link `..data` to it, and each top-level
 * name a link `<name> -> ..data/<name>`. Readers that follow symlinks see plain files; readers that
 * must stay inside the volume (virt-handler's) meet the same links as on a real node.
 */
export function writeVolumePayload(dir: string, files: ReadonlyMap<string, Buffer>, now: Date): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const payloadDir = `..${timestampOf(now)}`;
  for (const [relative, content] of files) {
    const path = join(dir, payloadDir, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content, { mode: 0o644 });
  }
  mkdirSync(join(dir, payloadDir), { recursive: true });
  symlinkSync(payloadDir, join(dir, DATA_DIR_LINK));
  const topLevel = new Set([...files.keys()].map((relative) => relative.split("/")[0] ?? relative));
  for (const name of topLevel) symlinkSync(join(DATA_DIR_LINK, name), join(dir, name));
}

/**
 * Why a file path cannot be in a volume (kubelet's validation of keys and items), or undefined:
 * relative, no `..` component, and no top-level name starting with `..` (the writer's own names).
 */
export function invalidPayloadPath(relative: string): string | undefined {
  if (relative === "" || relative.startsWith("/")) return `invalid path "${relative}": must be relative`;
  const parts = relative.split("/");
  if (parts.includes("..")) return `invalid path "${relative}": must not contain '..'`;
  if (parts[0]?.startsWith("..")) return `invalid path "${relative}": must not start with '..'`;
  return undefined;
}

/** kubelet's `..2006_01_02_15_04_05.<nanoseconds>`, in UTC. */
function timestampOf(now: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const date = `${now.getUTCFullYear()}_${pad(now.getUTCMonth() + 1)}_${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}_${pad(now.getUTCMinutes())}_${pad(now.getUTCSeconds())}`;
  return `${date}_${time}.${pad(now.getUTCMilliseconds() * 1_000_000, 9)}`;
}
