/** How `virtctl create` prints a manifest. */
import { stringify } from "yaml";

/** Sorted keys and unindented lists: the layout of KubeVirt's (Go) output. */
export function manifestYaml(manifest: unknown): string {
  return stringify(manifest, { sortMapEntries: true, indentSeq: false });
}
