// libvirt's refusals as HTTP answers: an operation invalid in the domain's current state (it just
// stopped, say) is a conflict the user can retry; a domain that vanished is not running.
import { ErrorCode, LibvirtError } from "../../libvirt/index.js";
import { HttpError } from "./http-status.js";

export function domainFailure(what: string, error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (LibvirtError.is(error, ErrorCode.OperationInvalid, ErrorCode.NoDomain)) {
    return new HttpError(409, "Conflict", `cannot ${what}: ${error.message}`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HttpError(500, "InternalError", `cannot ${what}: ${message}`, { cause: error });
}
