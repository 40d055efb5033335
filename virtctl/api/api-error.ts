/**
 * An answer other than 2xx from the API server (or from virt-api behind it), with the
 * metav1.Status it carried when it carried one: its message is what the server wants the user
 * to read, its details name the object it is about.
 */
import type { Status } from "../../runtime/index.js";

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly code: number;
  readonly status: Status | undefined;

  constructor(code: number, body: string, request: string) {
    const status = statusOf(body);
    super(status?.message || fallbackMessage(code, body, request));
    this.code = code;
    this.status = status;
  }

  get reason(): string | undefined {
    return this.status?.reason;
  }

  /** The name of the object the Status is about (set by NotFound, Conflict, Forbidden). */
  get objectName(): string | undefined {
    return this.status?.details?.name;
  }
}

function statusOf(body: string): Status | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === "object" && (parsed as { kind?: unknown }).kind === "Status") {
      return parsed as Status;
    }
  } catch {
    // Not JSON: a proxy's HTML page, or plain text; the fallback message shows its start.
  }
  return undefined;
}

function fallbackMessage(code: number, body: string, request: string): string {
  const text = body.replace(/\s+/g, " ").trim().slice(0, 200);
  return `${request} answered HTTP ${code}${text ? `: ${text}` : ""}`;
}
