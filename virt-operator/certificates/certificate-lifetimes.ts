/**
 * How long what the operator issues lives, and when it is replaced: KubeVirt's defaults (its
 * `certificateRotateStrategy`), a CA for 7 days and the certificates it signs for 24 hours, each
 * renewed once 80% of its validity has passed, so a component always has a fifth of the
 * lifetime to pick up the new one before the old one expires.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const CA_LIFETIME_MS = 7 * 24 * HOUR_MS;
export const CERTIFICATE_LIFETIME_MS = 24 * HOUR_MS;
/** The share of a validity period after which the certificate is replaced. */
export const RENEW_AFTER_FRACTION = 0.8;
/**
 * Certificates are valid from a little before their issue: a verifier whose clock is behind the
 * operator's would otherwise refuse a certificate that is not valid yet.
 */
export const BACKDATE_MS = 5 * MINUTE_MS;

/** A validity period, in milliseconds since the epoch. */
export interface Validity {
  readonly notBefore: number;
  readonly notAfter: number;
}

/**
 * The validity of something issued at `nowMs` for `lifetimeMs`, never past `notAfterLimit`
 * (a certificate must not outlive the CA that signed it).
 */
export function validityFrom(
  nowMs: number,
  lifetimeMs: number,
  notAfterLimit = Number.POSITIVE_INFINITY,
): Validity {
  return { notBefore: nowMs - BACKDATE_MS, notAfter: Math.min(nowMs + lifetimeMs, notAfterLimit) };
}

/** When a certificate of this validity is due for renewal: 80% into its validity. */
export function renewalDueAt(validity: Validity): number {
  return validity.notBefore + Math.floor((validity.notAfter - validity.notBefore) * RENEW_AFTER_FRACTION);
}
