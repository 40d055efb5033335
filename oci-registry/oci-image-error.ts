// The library's own errors. A consumer maps them to its own at its boundary (virt-handler to its
// ContainerDiskError and HostToolMissingError); the reasons are the kubelet's words, so they can be shown
// as they are.

export type OciImageErrorReason =
  /**
   * The image is there but cannot be used: an invalid reference, an unreadable or malformed layer, an entry
   * leaving the image's root, more unpacked bytes than allowed.
   */
  | "InvalidImage"
  /**
   * The image could not be pulled: registry unreachable or failing, authentication refused, manifest or
   * blob unknown, content not matching its digest, the node's mirror configuration unusable or blocking.
   */
  | "ImagePullFailed"
  /** Pull policy Never and the image is not in the cache (kubelet's reason). */
  | "ErrImageNeverPull";

export class OciImageError extends Error {
  override readonly name = "OciImageError";

  constructor(
    readonly reason: OciImageErrorReason,
    /** The reference as the caller wrote it. */
    readonly image: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** None of `commands` (alternatives for one job, e.g. zstd) is installed: the host's fault, not the image's. */
export class ToolMissingError extends Error {
  override readonly name = "ToolMissingError";

  constructor(
    readonly commands: readonly string[],
    options?: ErrorOptions,
  ) {
    super(`${commands.join(" or ")} is not installed`, options);
  }
}
