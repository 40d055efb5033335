// The container's termination message, as CDI's importer leaves it: kubelet reads the file when the
// container exits into state.terminated.message, where the DataVolume controller finds why the import
// failed. The file is the kubelet's (a bind mount, or the node agent's mapping): it is followed as given.
import { writeFile } from "node:fs/promises";
import { hostPathOf } from "./container-paths.js";

export const TERMINATION_MESSAGE_PATH = "/dev/termination-log";

/** Writes the message; a container without the file (run by hand) only loses the copy. */
export async function writeTerminationMessage(message: string, env: NodeJS.ProcessEnv): Promise<void> {
  await writeFile(hostPathOf(TERMINATION_MESSAGE_PATH, env), message).catch(() => undefined);
}
