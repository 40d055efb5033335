/**
 * Whether what a Secret holds can stay, or why it must be issued again. Pure: the material, what
 * it should be, and the time in; a reason (for the event and the log) out.
 */
import type { TlsMaterial } from "../../runtime/tls/tls-material.js";
import { renewalDueAt } from "./certificate-lifetimes.js";
import {
  commonNameOf,
  dnsNamesOf,
  isSelfSignedCa,
  isSignedBy,
  keyMatches,
  type ReadCertificate,
  readBundle,
  readCertificate,
  usageOf,
} from "./certificate-reader.js";
import type { CertificateRequest } from "./issued-certificates.js";

/** The CA a Secret holds, and what it trusted before. */
export interface StoredCa {
  /** Its certificate when it is a usable CA (parses, self-signed, its key): kept or retired. */
  readonly certificate: ReadCertificate | undefined;
  /** The CAs of its `ca.crt` (the previous bundle). */
  readonly bundle: readonly ReadCertificate[];
  /** Why a new CA is needed; undefined while this one may sign. */
  readonly renewBecause: string | undefined;
}

export function checkStoredCa(
  stored: { material: TlsMaterial } | { problem: string },
  nowMs: number,
): StoredCa {
  if ("problem" in stored) return { certificate: undefined, bundle: [], renewBecause: stored.problem };
  const { material } = stored;
  const bundle = readBundle(material.caPem);
  let certificate: ReadCertificate;
  try {
    certificate = readCertificate(material.certPem);
  } catch (error) {
    return { certificate: undefined, bundle, renewBecause: messageOf(error) };
  }
  if (!isSelfSignedCa(certificate))
    return { certificate: undefined, bundle, renewBecause: "the certificate is not a self-signed CA" };
  if (!keyMatches(certificate, material.keyPem))
    return { certificate, bundle, renewBecause: "the key is not the CA certificate's" };
  return { certificate, bundle, renewBecause: timeProblem(certificate, nowMs) };
}

/**
 * Why a certificate must be issued again: it is unreadable, not the one requested, signed by no
 * CA of the bundle, or due for renewal. Undefined when it may stay.
 */
export function certificateProblem(
  stored: { material: TlsMaterial } | { problem: string },
  request: CertificateRequest,
  bundle: readonly ReadCertificate[],
  nowMs: number,
): string | undefined {
  if ("problem" in stored) return stored.problem;
  let certificate: ReadCertificate;
  try {
    certificate = readCertificate(stored.material.certPem);
  } catch (error) {
    return messageOf(error);
  }
  if (!keyMatches(certificate, stored.material.keyPem)) return "the key is not the certificate's";
  if (!bundle.some((ca) => isSignedBy(certificate, ca))) return "signed by no CA of the current bundle";
  if (
    commonNameOf(certificate) !== request.commonName ||
    usageOf(certificate) !== request.usage ||
    dnsNamesOf(certificate).join(",") !== request.dnsNames.join(",")
  )
    return "issued for another name or usage";
  return timeProblem(certificate, nowMs);
}

function timeProblem(certificate: ReadCertificate, nowMs: number): string | undefined {
  if (nowMs < certificate.validity.notBefore) return "not valid yet (the clock went back)";
  if (nowMs >= renewalDueAt(certificate.validity)) return "due for renewal (80% of its validity passed)";
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
