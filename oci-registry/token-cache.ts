// Bearer tokens per (origin, realm, service, scope, user), kept until shortly before they expire, and the
// last challenge each origin sent, so that later requests carry a cached token without a 401 first.
import type { AuthChallenge } from "./www-authenticate.js";

/** Tokens are dropped this long before the registry says they expire (clock skew, request time). */
const EXPIRY_MARGIN_MS = 10_000;

export class TokenCache {
  readonly #tokens = new Map<string, { token: string; expiresAt: number }>();
  readonly #challenges = new Map<string, AuthChallenge>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  challenge(origin: string): AuthChallenge | undefined {
    return this.#challenges.get(origin);
  }

  rememberChallenge(origin: string, challenge: AuthChallenge): void {
    this.#challenges.set(origin, challenge);
  }

  token(key: string): string | undefined {
    const entry = this.#tokens.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt - EXPIRY_MARGIN_MS <= this.#now()) {
      this.#tokens.delete(key);
      return undefined;
    }
    return entry.token;
  }

  store(key: string, token: string, expiresInSeconds: number): void {
    this.#tokens.set(key, { token, expiresAt: this.#now() + expiresInSeconds * 1000 });
  }
}
