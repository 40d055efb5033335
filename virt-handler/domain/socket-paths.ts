// Unix sockets live in the VM's own directory, `<stateDir>/<uid>/`: QEMU's VNC server listens on
// `vnc.sock` there. A socket's path must fit sockaddr_un.sun_path (108 bytes on Linux, with the
// terminating NUL), and QEMU fails a domain whose socket path does not, so a state directory too
// long for a VMI uid is refused when virt-handler starts, with what to do, instead of failing every
// VM with graphics. (Moving sockets to a short runtime directory would leave the VM's files in two
// places to create, confine and remove, and break the running domains of an upgraded handler,
// whose definitions name the old path.) No user text is in the path: the uid is the API server's.
import { join } from "node:path";

export const MAX_UNIX_SOCKET_PATH_BYTES = 107;
export const VNC_SOCKET_NAME = "vnc.sock";
/** QEMU's end of the guest agent's virtio-serial channel (KubeVirt's org.qemu.guest_agent.0). */
export const AGENT_SOCKET_NAME = "agent.sock";
/**
 * Where the VM's passt (in its launcher pod) listens for QEMU; the longest socket name. passt binds
 * it after dropping to its unprivileged user, so it is in a directory of its own that user owns.
 */
export const PASST_SOCKET_DIR = "passt";
export const PASST_SOCKET_NAME = `${PASST_SOCKET_DIR}/sock`;
/**
 * passt (Debian 12's) keeps at most this many bytes of its --socket path and binds the cut one;
 * a VM whose passt socket path is longer is refused at start (measured: a 99-byte path binds at
 * its first 98 bytes).
 */
export const MAX_PASST_SOCKET_PATH_BYTES = 98;
/** A Kubernetes uid: a UUID in its 36-character text form. */
export const VMI_UID_LENGTH = 36;

export class StateDirectoryError extends Error {
  override readonly name = "StateDirectoryError";
  readonly reason = "StateDirTooLong";
}

/** The longest socket path a VMI of this state directory gets. */
export function longestSocketPath(stateDir: string): string {
  return join(stateDir, "0".repeat(VMI_UID_LENGTH), PASST_SOCKET_NAME);
}

/** Throws StateDirectoryError when a VM directory's sockets would not fit a unix socket address. */
export function checkSocketPathsFit(stateDir: string): void {
  const path = longestSocketPath(stateDir);
  const bytes = Buffer.byteLength(path);
  if (bytes <= MAX_UNIX_SOCKET_PATH_BYTES) return;
  const room = MAX_UNIX_SOCKET_PATH_BYTES - (bytes - Buffer.byteLength(stateDir));
  throw new StateDirectoryError(
    `the state directory ${stateDir} is too long: a VM's socket there (${path}) would take ${bytes} bytes, more than the ${MAX_UNIX_SOCKET_PATH_BYTES} a unix socket path can have; set --state-dir (or VIRT_HANDLER_STATE_DIR) to a directory of at most ${room} bytes`,
  );
}
