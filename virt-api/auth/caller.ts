/** Who made a subresource request: the user the front-proxy (the API server) authenticated. */
export interface Caller {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  /** `X-Remote-Extra-<key>` values, keys lower-case and unescaped (e.g. `authentication.kubernetes.io/pod-name`). */
  readonly extra: Readonly<Record<string, readonly string[]>>;
}
