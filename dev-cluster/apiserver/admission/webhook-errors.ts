import { ApiError, type StatusDetails, type StatusReason } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";

/** A webhook that could not be called or answered nonsense: its failurePolicy decides. */
export class WebhookCallError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "WebhookCallError";
  }
}

/**
 * failurePolicy Fail: `Internal error occurred: failed calling webhook "NAME": REASON` (500), as
 * apierrors.NewInternalError of webhook.ErrCallingWebhook.
 */
export function failedCallingWebhook(webhookName: string, error: Error): ApiError {
  const message = `failed calling webhook "${webhookName}": ${error.message}`;
  return new ApiError(
    500,
    "InternalError",
    `Internal error occurred: ${message}`,
    { causes: [{ reason: "", message }] },
    { cause: error },
  );
}

const REASONS = new Set<string>([
  "BadRequest",
  "Unauthorized",
  "Forbidden",
  "NotFound",
  "AlreadyExists",
  "Conflict",
  "Gone",
  "Expired",
  "Invalid",
  "MethodNotAllowed",
  "NotAcceptable",
  "RequestEntityTooLarge",
  "UnsupportedMediaType",
  "ServerTimeout",
  "Timeout",
  "InternalError",
  "ServiceUnavailable",
]);

function detailsOf(status: JsonObject | undefined): StatusDetails | undefined {
  const details = status?.details;
  return isJsonObject(details) ? (details as unknown as StatusDetails) : undefined;
}

/**
 * A webhook's denial, as webhookerrors.ToStatusErr words it: `admission webhook "NAME" denied
 * the request: MESSAGE` (or its reason, or `without explanation`), with the webhook's code,
 * reason and details. A denial without a code is a 403 Forbidden, as newer kube-apiservers answer
 * (1.32 let it become a 500, which upstream has since called a bug).
 */
export function webhookDenied(webhookName: string, status: JsonObject | undefined): ApiError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const message = typeof status?.message === "string" && status.message !== "" ? status.message : undefined;
  const statusReason = typeof status?.reason === "string" && status.reason !== "" ? status.reason : undefined;
  const text = message
    ? `${deniedBy}: ${message}`
    : statusReason
      ? `${deniedBy}: ${statusReason}`
      : `${deniedBy} without explanation`;
  const code = typeof status?.code === "number" && status.code >= 400 ? status.code : 403;
  const reason: StatusReason =
    statusReason && REASONS.has(statusReason)
      ? (statusReason as StatusReason)
      : code === 403
        ? "Forbidden"
        : code === 500
          ? "InternalError"
          : "BadRequest";
  return new ApiError(code, reason, text, detailsOf(status));
}

/** A dry run may not reach a webhook that has side effects (webhookerrors.NewDryRunUnsupportedErr). */
export function dryRunUnsupported(webhookName: string): ApiError {
  return new ApiError(400, "BadRequest", `admission webhook "${webhookName}" does not support dry run`);
}
