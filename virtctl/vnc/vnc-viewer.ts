/**
 * The local VNC viewer `virtctl vnc` starts, as KubeVirt's does: remote-viewer (virt-viewer) or
 * vncviewer (TigerVNC and friends), the first found on PATH, pointed at the proxy's port.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export interface ViewerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** The viewers tried, in order, with how each is told where to connect. */
const VIEWERS: readonly { name: string; args: (host: string, port: number) => string[] }[] = [
  { name: "remote-viewer", args: (host, port) => [`vnc://${host}:${port}`] },
  // TigerVNC reads `host::port` as a port (`host:N` would be display N, port 5900+N).
  { name: "vncviewer", args: (host, port) => [`${host}::${port}`] },
];

export const VIEWER_NAMES = VIEWERS.map((viewer) => viewer.name);

export function findViewer(host: string, port: number, path: string | undefined): ViewerCommand | undefined {
  const directories = (path ?? "").split(delimiter).filter((directory) => directory !== "");
  for (const viewer of VIEWERS) {
    for (const directory of directories) {
      const candidate = join(directory, viewer.name);
      if (isExecutable(candidate)) return { command: candidate, args: viewer.args(host, port) };
    }
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
