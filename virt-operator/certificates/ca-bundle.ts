/**
 * The CA bundle after a rotation: the current CA first, then each earlier CA for as long as a
 * certificate it signed may still be in use. Certificates are not re-issued when the CA is
 * rotated (they are renewed on their own schedule), so a verifier must trust the earlier CA
 * until the last certificate it signed has expired: at the latest one certificate lifetime after
 * its successor took over, and never past its own expiry.
 */
import { BACKDATE_MS, CERTIFICATE_LIFETIME_MS } from "./certificate-lifetimes.js";
import type { ReadCertificate } from "./certificate-reader.js";

export interface CaBundle {
  /** The current CA first, then the earlier ones still trusted, newest first. */
  readonly certificates: readonly ReadCertificate[];
  /** When the next earlier CA leaves the bundle (undefined: none left to retire). */
  readonly nextRetirementAt: number | undefined;
}

export function caBundleOf(
  current: ReadCertificate,
  earlier: readonly ReadCertificate[],
  nowMs: number,
): CaBundle {
  // The current CA heads the bundle even if an earlier one claims a later start (a clock that
  // went back): what signs now is what a verifier needs first.
  const chain = [
    current,
    ...uniqueExcept(earlier, current).sort(
      (left, right) => right.validity.notBefore - left.validity.notBefore,
    ),
  ];
  const kept: ReadCertificate[] = [current];
  const retirements: number[] = [];
  for (let index = 1; index < chain.length; index++) {
    const certificate = chain[index] as ReadCertificate;
    const successor = chain[index - 1] as ReadCertificate;
    const retiresAt = retirementOf(certificate, successor);
    if (nowMs >= retiresAt) continue;
    kept.push(certificate);
    retirements.push(retiresAt);
  }
  return {
    certificates: kept,
    nextRetirementAt: retirements.length > 0 ? Math.min(...retirements) : undefined,
  };
}

/**
 * When an earlier CA is no longer needed: what it signed was issued before its successor (at
 * the successor's notBefore + BACKDATE_MS) and lives one certificate lifetime at most.
 */
function retirementOf(earlier: ReadCertificate, successor: ReadCertificate): number {
  const successorIssuedAt = successor.validity.notBefore + BACKDATE_MS;
  return Math.min(earlier.validity.notAfter, successorIssuedAt + CERTIFICATE_LIFETIME_MS);
}

function uniqueExcept(
  certificates: readonly ReadCertificate[],
  excluded: ReadCertificate,
): ReadCertificate[] {
  const seen = new Set([excluded.x509.fingerprint256]);
  return certificates.filter((certificate) => {
    if (seen.has(certificate.x509.fingerprint256)) return false;
    seen.add(certificate.x509.fingerprint256);
    return true;
  });
}
