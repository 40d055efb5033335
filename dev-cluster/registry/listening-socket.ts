// Whether a process holds the listening TCP socket of a port. When a free port is picked before
// the registry binds it, another program may bind it first: then `GET /v2/` is answered by that
// program (maybe another dev cluster's registry) while ours fails, and only the socket tells.
import { readdir, readFile, readlink } from "node:fs/promises";

const LISTEN_STATE = "0A";

export async function holdsListeningSocket(pid: number, port: number): Promise<boolean> {
  const inodes = new Set<string>();
  for (const table of ["tcp", "tcp6"]) {
    const text = await readFile(`/proc/${pid}/net/${table}`, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const localPort = fields[1]?.split(":")[1];
      if (localPort && Number.parseInt(localPort, 16) === port && fields[3] === LISTEN_STATE && fields[9])
        inodes.add(fields[9]);
    }
  }
  if (inodes.size === 0) return false;
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) return true;
  }
  return false;
}
