// Paths inside an image ("/disk/disk.qcow2", as written in a VMI or a manifest), checked as text before
// anything on the host is looked up: the text alone must never be able to name a file outside the image.
// (Symbolic links are the other way out; image-file.ts checks those on the file system.)
import { describePathInImage } from "../../oci-registry/index.js";
import { ContainerDiskError } from "./container-disk-source.js";

export { describePathInImage };

/** Linux's PATH_MAX, counting the terminating NUL: longer paths fail with ENAMETOOLONG anyway. */
export const PATH_MAX_BYTES = 4096;
/** Linux's NAME_MAX: the longest file name in a directory. */
export const NAME_MAX_BYTES = 255;

/**
 * The components of `pathInImage` (one leading "/" is optional). Refuses a NUL byte, an empty component
 * ("//", a trailing "/"), "." and "..", a component over NAME_MAX and a path over PATH_MAX, so that
 * joining the components under the image's root names a file at that exact place under it.
 */
export function pathInImageComponents(image: string, pathInImage: string): string[] {
  const refuse = (why: string) =>
    new ContainerDiskError(
      "InvalidImage",
      image,
      `${image}: the path ${describePathInImage(pathInImage)} ${why}`,
    );
  if (pathInImage.includes("\0")) throw refuse("contains a NUL byte");
  if (Buffer.byteLength(pathInImage) >= PATH_MAX_BYTES)
    throw refuse(`is longer than ${PATH_MAX_BYTES - 1} bytes`);
  const relative = pathInImage.startsWith("/") ? pathInImage.slice(1) : pathInImage;
  const components = relative.split("/");
  for (const component of components) {
    if (component === "..") throw refuse("leaves the image (it has a .. component)");
    if (component === "" || component === ".") throw refuse("has an empty or . component");
    if (Buffer.byteLength(component) > NAME_MAX_BYTES) {
      throw refuse(`has a component longer than ${NAME_MAX_BYTES} bytes`);
    }
  }
  return components;
}

/** `pathInImage` in one spelling ("/disk/disk.qcow2"), so that two spellings of one file compare equal. */
export function canonicalPathInImage(image: string, pathInImage: string): string {
  return `/${pathInImageComponents(image, pathInImage).join("/")}`;
}
