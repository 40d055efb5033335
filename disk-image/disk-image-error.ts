// The library's error: the file is not a disk image that may be handed to QEMU. `detail` is the predicate
// alone ("names a backing file /x: refused, ..."), so a caller can put its own subject before it (virt-handler:
// "<image>: the disk /disk/x.qcow2 ...") and map the error to its own at its boundary.

export class DiskImageError extends Error {
  override readonly name = "DiskImageError";
  /** Always the same word: the image is the user's fault, whatever is wrong with it. */
  readonly reason = "InvalidImage";

  constructor(
    /** The file checked. */
    readonly path: string,
    /** What is wrong with it, as a predicate. */
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(`${path} ${detail}`, options);
  }
}
