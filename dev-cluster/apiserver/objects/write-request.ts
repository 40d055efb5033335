import type { IncomingMessage } from "node:http";
import type { JsonObject, JsonValue } from "../json.js";
import type { FieldValidation } from "./decode.js";
import type { DeleteOptions } from "./deletion.js";
import type { PatchType } from "./patch-body.js";
import type { RequestTarget } from "./request-target.js";

/** The options of a create, update or patch, read once from the request's query. */
export interface WriteRequestOptions {
  dryRun: boolean;
  /** Who makes the change, for managedFields: the fieldManager sent, else the client's user agent. */
  fieldManager: string;
  fieldValidation: FieldValidation;
  /** What the client sent itself; admission reviews show these and nothing defaulted. */
  sent: { fieldManager?: string; fieldValidation?: FieldValidation };
}

interface WriteRequestBase {
  target: RequestTarget;
  /** The HTTP request, by which admission learns who asks. */
  requester: IncomingMessage;
}

export interface CreateRequest extends WriteRequestBase {
  verb: "create";
  /** The decoded body, not yet checked to be an object of the target's kind. */
  object: JsonValue;
  options: WriteRequestOptions;
}

export interface UpdateRequest extends WriteRequestBase {
  verb: "update";
  object: JsonValue;
  options: WriteRequestOptions;
}

export interface PatchRequest extends WriteRequestBase {
  verb: "patch";
  patchType: PatchType;
  patch: JsonValue;
  /** Server-side apply takes over fields other managers own. */
  force: boolean;
  options: WriteRequestOptions;
}

export interface DeleteRequest extends WriteRequestBase {
  verb: "delete";
  options: DeleteOptions;
}

export interface DeleteCollectionRequest extends WriteRequestBase {
  verb: "deleteCollection";
  options: DeleteOptions;
  /** Which objects of the collection go, from the label and field selectors. */
  filter: (object: JsonObject) => boolean;
}

/** A write as the REST layer decoded it from one HTTP request: body, target and options, decoded once. */
export type WriteRequest =
  | CreateRequest
  | UpdateRequest
  | PatchRequest
  | DeleteRequest
  | DeleteCollectionRequest;

/** The same write, computed but not stored. */
export function asDryRun<W extends CreateRequest | UpdateRequest | PatchRequest>(write: W): W {
  return { ...write, options: { ...write.options, dryRun: true } };
}
