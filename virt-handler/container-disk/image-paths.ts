// Paths inside an image ("/disk/disk.qcow2", as written in a VMI or a manifest) → host paths.
import { join } from "node:path";
import { ContainerDiskError } from "./container-disk-source.js";

/** The host path of `pathInImage` under an image's file system root; refuses paths that climb out of it. */
export function hostPathInImage(image: string, root: string, pathInImage: string): string {
  const relative = pathInImage.replace(/^\/+/, "");
  if (relative === "" || relative.split("/").includes("..")) {
    throw new ContainerDiskError(
      "InvalidImage",
      image,
      `${image}: the path "${pathInImage}" leaves the image`,
    );
  }
  return join(root, relative);
}
