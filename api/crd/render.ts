import type { TSchema } from "@sinclair/typebox";
import { stringify } from "yaml";
import type { KindDefinition } from "../kind.js";
import { buildCrd, crdName } from "./crd-builder.js";
import { KUBEVIRT_KINDS } from "./kubevirt-kinds.js";

/** One generated CRD file: its name under crds/ and its exact text. */
export interface CrdFile {
  readonly fileName: string;
  readonly text: string;
}

const HEADER = "# Generated from api/ by `npm run generate` (api/generate-crds.ts). Do not edit.\n";

export function renderCrd(definition: KindDefinition<TSchema, TSchema>): CrdFile {
  // lineWidth 0: no folding, so the text depends only on the schema, never on line lengths.
  const body = stringify(buildCrd(definition), { lineWidth: 0, minContentWidth: 0 });
  return { fileName: `${crdName(definition)}.yaml`, text: HEADER + body };
}

export function renderAllCrds(): CrdFile[] {
  return KUBEVIRT_KINDS.map(renderCrd);
}
