/** Options the API server accepts on writes and deletes, in the shape its query and body take. */

export interface WriteOptions {
  /** Who makes the change (managedFields); default the client's field manager. */
  fieldManager?: string;
  /** Validate and default without storing. */
  dryRun?: boolean;
  /** How unknown or duplicate fields are treated: Strict (400), Warn (default), Ignore. */
  fieldValidation?: "Strict" | "Warn" | "Ignore";
  /** Abandons the request. */
  signal?: AbortSignal;
}

export type PropagationPolicy = "Background" | "Foreground" | "Orphan";

export interface DeleteOptions {
  /** The delete fails with a Conflict unless the stored object still has this uid / resourceVersion. */
  preconditions?: { uid?: string; resourceVersion?: string };
  /** What happens to dependents (ownerReferences): default Background. */
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  dryRun?: boolean;
  signal?: AbortSignal;
}

export interface ListOptions {
  /** Omit (or leave undefined) for all namespaces. */
  namespace?: string;
  /** Server-side label selector in its text form, e.g. `app=web,tier!=db`. */
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; the answer's `continue` fetches the next page. */
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface ListResult<T> {
  items: T[];
  /** The collection's resourceVersion: a watch from it misses nothing. */
  resourceVersion: string;
  continue?: string;
}

export type JsonPatchOperation =
  | { op: "add" | "replace" | "test"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; from: string; path: string };

export const contentTypes = {
  merge: "application/merge-patch+json",
  json: "application/json-patch+json",
  apply: "application/apply-patch+yaml",
} as const;

export function writeQuery(
  options: WriteOptions,
  defaultFieldManager: string,
): Record<string, string | undefined> {
  return {
    fieldManager: options.fieldManager ?? defaultFieldManager,
    dryRun: options.dryRun ? "All" : undefined,
    fieldValidation: options.fieldValidation,
  };
}

export function deleteBody(options: DeleteOptions): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "DeleteOptions",
    ...(options.preconditions ? { preconditions: options.preconditions } : {}),
    ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
    ...(options.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: options.gracePeriodSeconds } : {}),
    ...(options.dryRun ? { dryRun: ["All"] } : {}),
  };
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Start after this version; omit for the current state as synthetic ADDED events, then changes. */
  resourceVersion?: string;
  /** Ask the server to end the stream after this many seconds. */
  timeoutSeconds?: number;
  /** Let the server send BOOKMARK events carrying newer resourceVersions (default true). */
  allowWatchBookmarks?: boolean;
  /** Closes the stream. */
  signal?: AbortSignal;
}
