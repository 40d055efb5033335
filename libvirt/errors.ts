import koffi from "koffi";
import { ErrorCode, ErrorDomain, ErrorLevel } from "./error-codes.js";
import { libcNative, native, type Pointer, types } from "./ffi.js";

/** libvirt's `virError`, copied out of libvirt's thread-local storage. */
export interface LibvirtErrorData {
  readonly code: number;
  readonly domain: number;
  readonly level: number;
  readonly message: string;
}

/**
 * A failed libvirt call. `code` and `domain` are libvirt's (`virErrorNumber`, `virErrorDomain`);
 * `reason` is the code's name (e.g. "NoDomain"), for events and conditions.
 */
export class LibvirtError extends Error {
  override readonly name = "LibvirtError";
  readonly code: ErrorCode;
  readonly domain: ErrorDomain;
  readonly level: ErrorLevel;
  /** libvirt's own text, without the call name this message adds. */
  readonly libvirtMessage: string;
  /** The C function that failed, e.g. "virDomainCreateWithFlags". */
  readonly operation: string;
  readonly reason: string;

  constructor(operation: string, data: LibvirtErrorData, options?: ErrorOptions) {
    super(`${operation}: ${data.message}`, options);
    this.operation = operation;
    this.code = data.code;
    this.domain = data.domain;
    this.level = data.level;
    this.libvirtMessage = data.message;
    this.reason = ErrorCode[data.code] ?? `Code${data.code}`;
  }

  /** True when `err` is a LibvirtError with one of `codes`. */
  static is(err: unknown, ...codes: ErrorCode[]): err is LibvirtError {
    return err instanceof LibvirtError && (codes.length === 0 || codes.includes(err.code));
  }
}

const UNKNOWN: LibvirtErrorData = {
  code: ErrorCode.InternalError,
  domain: ErrorDomain.None,
  level: ErrorLevel.Error,
  message: "the call failed without setting an error",
};

/**
 * Copies libvirt's last error of *this* thread. libvirt keeps it per thread and overwrites it with the
 * next call, so read it right after the failing call, on the thread that made it.
 */
export function readLastError(): LibvirtErrorData | null {
  const pointer = native.getLastError();
  if (pointer === null) return null;
  const raw = koffi.decode(pointer, types.error) as Record<string, unknown>;
  return {
    code: typeof raw.code === "number" ? raw.code : UNKNOWN.code,
    domain: typeof raw.domain === "number" ? raw.domain : UNKNOWN.domain,
    level: typeof raw.level === "number" ? raw.level : UNKNOWN.level,
    message: typeof raw.message === "string" ? raw.message : UNKNOWN.message,
  };
}

/** The LibvirtError for a call that just failed on this thread. */
export function lastError(operation: string): LibvirtError {
  return new LibvirtError(operation, readLastError() ?? UNKNOWN);
}

/** Throws the last error unless `result` shows success (`>= 0`). */
export function check(operation: string, result: number): number {
  if (result < 0) throw lastError(operation);
  return result;
}

/** Throws the last error when a call that returns an object returned NULL. */
export function checkPointer(operation: string, result: Pointer | null): Pointer {
  if (result === null) throw lastError(operation);
  return result;
}

/**
 * libvirt prints every error to stderr unless an error handler is set, and a JavaScript handler would be
 * called from libvirt's threads for every failure. `virResetError(NULL)` is a C function with the
 * handler's shape (`void (void *userData, virError *err)` called as `handler(NULL, err)`) that does nothing
 * for NULL: installing it keeps libvirt quiet without JavaScript. `virGetLastError` still works.
 */
function installQuietErrorHandler(): void {
  const RTLD_NOW_NOLOAD = 0x2 | 0x4;
  const handle = libcNative.dlopen("libvirt.so.0", RTLD_NOW_NOLOAD);
  const resetError = handle === null ? null : libcNative.dlsym(handle, "virResetError");
  if (resetError !== null) native.setErrorFunc(null, resetError);
}

installQuietErrorHandler();
