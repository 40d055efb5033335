/**
 * admission.k8s.io/v1 AdmissionReview, as far as virt-api reads and answers it: the request's
 * uid is echoed, a denial carries a Status with the field causes, a mutation a base64 JSON patch.
 */
import type { Cause } from "../../api/index.js";
import type { JsonPatchOperation } from "../../runtime/index.js";
import { badRequest } from "../status/status-error.js";

export const ADMISSION_API_VERSION = "admission.k8s.io/v1";

export interface AdmissionRequest {
  readonly uid: string;
  readonly operation: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly object?: unknown;
  readonly oldObject?: unknown;
  readonly dryRun?: boolean;
  /** Who asked (the API server's authenticated user). */
  readonly userInfo?: { readonly username?: string };
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: {
    status: "Failure";
    code: number;
    reason: string;
    message: string;
    details?: { causes: { reason: string; message: string; field: string }[] };
  };
  patchType?: "JSONPatch";
  /** base64 of the JSON patch. */
  patch?: string;
}

export interface AdmissionReview {
  apiVersion: typeof ADMISSION_API_VERSION;
  kind: "AdmissionReview";
  response: AdmissionResponse;
}

/** The review's request; throws a 400 StatusError when the body is not an AdmissionReview v1 with a uid. */
export function admissionRequestOf(body: unknown): AdmissionRequest {
  const review = body as { apiVersion?: unknown; kind?: unknown; request?: Partial<AdmissionRequest> } | null;
  if (!review || typeof review !== "object" || review.kind !== "AdmissionReview") {
    throw badRequest("the body is not an AdmissionReview");
  }
  if (review.apiVersion !== ADMISSION_API_VERSION) {
    throw badRequest(
      `AdmissionReview ${String(review.apiVersion)} is not supported: send ${ADMISSION_API_VERSION}`,
    );
  }
  const request = review.request;
  if (!request || typeof request.uid !== "string" || request.uid === "") {
    throw badRequest("the AdmissionReview has no request uid");
  }
  return { ...request, uid: request.uid, operation: String(request.operation ?? "") };
}

export function reviewOf(response: AdmissionResponse): AdmissionReview {
  return { apiVersion: ADMISSION_API_VERSION, kind: "AdmissionReview", response };
}

export function allowed(uid: string): AdmissionResponse {
  return { uid, allowed: true };
}

/** Allowed with a patch; no patch at all when there is nothing to change. */
export function patched(uid: string, operations: readonly JsonPatchOperation[]): AdmissionResponse {
  if (operations.length === 0) return allowed(uid);
  return {
    uid,
    allowed: true,
    patchType: "JSONPatch",
    patch: Buffer.from(JSON.stringify(operations)).toString("base64"),
  };
}

/**
 * Denied with 422 Invalid, as KubeVirt's webhooks deny: every cause in the details, and one
 * message naming each field path (kube-apiserver puts it after `admission webhook "NAME" denied
 * the request: `).
 */
export function denied(uid: string, causes: readonly Cause[]): AdmissionResponse {
  return {
    uid,
    allowed: false,
    status: {
      status: "Failure",
      code: 422,
      reason: "Invalid",
      message: causes.map(causeMessage).join(", "),
      details: { causes: causes.map((cause) => ({ ...cause })) },
    },
  };
}

/** `field: message`, unless the message already names its field (many of KubeVirt's do). */
export function causeMessage(cause: Cause): string {
  if (cause.field === "" || cause.message.includes(cause.field)) return cause.message;
  return `${cause.field}: ${cause.message}`;
}
