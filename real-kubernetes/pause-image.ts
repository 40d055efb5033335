/**
 * The pod sandbox image, built from pause/ (a static C program on scratch) with the images' own
 * podman settings and saved as an OCI archive for containerd to import: the node never pulls its
 * sandbox, so pods start before the registry holds anything.
 */
import { join } from "node:path";
import { ensureDebianBase } from "../images/build/base-images.js";
import { imageExists, podman, runtimeArgs } from "../images/build/podman.js";

export const PAUSE_IMAGE = "localhost/kubevirt-ts/pause:3.9";

export async function buildPauseArchive(options: {
  root: string;
  archive: string;
  log: (line: string) => void;
}): Promise<string> {
  if (!(await imageExists(PAUSE_IMAGE))) {
    await ensureDebianBase(options.log);
    const context = join(options.root, "real-kubernetes", "pause");
    options.log(`building ${PAUSE_IMAGE}`);
    await podman(["build", ...runtimeArgs(), "--pull=never", "--network=host", "-t", PAUSE_IMAGE, context], {
      quiet: true,
    });
  }
  await podman(["save", "--format", "oci-archive", "-o", options.archive, PAUSE_IMAGE], { quiet: true });
  return PAUSE_IMAGE;
}
