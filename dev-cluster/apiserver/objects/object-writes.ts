import type { JsonObject } from "../json.js";
import type { WriteOutcome } from "./object-service.js";
import type {
  CreateRequest,
  DeleteCollectionRequest,
  DeleteRequest,
  PatchRequest,
  UpdateRequest,
} from "./write-request.js";

/**
 * The writes the REST layer makes, one method per verb. Layers wrap one another behind this one
 * interface (the escalation guard, admission webhooks, the store), so a write only goes downward.
 */
export interface ObjectWrites {
  create(write: CreateRequest): Promise<WriteOutcome>;
  update(write: UpdateRequest): Promise<WriteOutcome>;
  /** `created` when server-side apply created the object. */
  patch(write: PatchRequest): Promise<WriteOutcome>;
  /** The object as it now is (or was, when removed). */
  delete(write: DeleteRequest): Promise<JsonObject>;
  /** The list of what was deleted. */
  deleteCollection(write: DeleteCollectionRequest): Promise<JsonObject>;
}
