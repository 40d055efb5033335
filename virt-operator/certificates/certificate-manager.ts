/**
 * The reconciler's certificate step: makes the CA and the certificates it signs exist, be valid
 * and current, before the strategy is rendered with the CA bundle they chain to. Level-based: it
 * looks at the Secrets as they are (a deleted one is issued again, a damaged one replaced), writes
 * only what must change, and says when it next has something to do.
 */
import type { Clock, Frozen } from "../../runtime/index.js";
import { type Secret, TLS_SECRET_KEYS } from "../../runtime/tls/secret-tls-source.js";
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueCertificate,
} from "../../runtime/tls/x509.js";
import { type CaBundle, caBundleOf } from "./ca-bundle.js";
import { certificateProblem, checkStoredCa } from "./certificate-checks.js";
import {
  CA_LIFETIME_MS,
  CERTIFICATE_LIFETIME_MS,
  renewalDueAt,
  validityFrom,
} from "./certificate-lifetimes.js";
import { bundlePemOf, type ReadCertificate, readCertificate } from "./certificate-reader.js";
import { certificateSecret, differsFrom, storedMaterial } from "./certificate-secret.js";
import type { CertificateSecrets } from "./certificate-secrets.js";
import {
  CA_PURPOSE,
  CA_SECRET,
  caCommonName,
  type IssuedCertificate,
  issuedCertificates,
} from "./issued-certificates.js";

/** What one pass wrote: a Secret issued anew (with why), or only brought up to date (its CA bundle). */
export interface CertificateChange {
  readonly secret: string;
  readonly change: "issued" | "bundle";
  readonly reason: string;
}

export interface CertificateState {
  /** The CA bundle (PEM): every certificate in use chains to one of these. */
  readonly caBundlePem: string;
  /** When a renewal or a retirement from the bundle is next due. */
  readonly nextDueAt: number;
  readonly changes: readonly CertificateChange[];
}

/** The current CA, signing, and the bundle it heads. */
interface SigningCa {
  readonly ca: CertificateAndKey;
  readonly certificate: ReadCertificate;
  readonly bundle: CaBundle;
  readonly bundlePem: string;
}

export class CertificateManager {
  readonly #secrets: CertificateSecrets;
  readonly #clock: Clock;

  constructor(secrets: CertificateSecrets, clock: Clock) {
    this.#secrets = secrets;
    this.#clock = clock;
  }

  async ensure(namespace: string, signal: AbortSignal): Promise<CertificateState> {
    const nowMs = this.#clock.now();
    const changes: CertificateChange[] = [];
    const signing = await this.#ensureCa(namespace, nowMs, changes, signal);
    const due = [renewalDueAt(signing.certificate.validity), signing.bundle.nextRetirementAt ?? Infinity];
    for (const issued of issuedCertificates(namespace))
      due.push(await this.#ensureCertificate(namespace, issued, signing, nowMs, changes, signal));
    return { caBundlePem: signing.bundlePem, nextDueAt: Math.min(...due), changes };
  }

  async #ensureCa(
    namespace: string,
    nowMs: number,
    changes: CertificateChange[],
    signal: AbortSignal,
  ): Promise<SigningCa> {
    const ref = { namespace, name: CA_SECRET };
    const live = this.#secrets.current(ref);
    const stored = storedMaterial(live);
    const checked = checkStoredCa(stored, nowMs);
    let ca: CertificateAndKey;
    let certificate: ReadCertificate;
    let earlier: readonly ReadCertificate[];
    if (checked.renewBecause === undefined && checked.certificate && "material" in stored) {
      ca = stored.material;
      certificate = checked.certificate;
      earlier = checked.bundle;
    } else {
      ca = await createCertificateAuthority(caCommonName(nowMs), validityFrom(nowMs, CA_LIFETIME_MS));
      certificate = readCertificate(ca.certPem);
      // The CA it replaces signed certificates still in use: it stays trusted for their lifetime.
      earlier = checked.certificate ? [checked.certificate, ...checked.bundle] : checked.bundle;
    }
    const bundle = caBundleOf(certificate, earlier, nowMs);
    const bundlePem = bundlePemOf(bundle.certificates);
    const desired = certificateSecret(namespace, CA_SECRET, CA_PURPOSE, { ...ca, caPem: bundlePem });
    await this.#writeIfChanged(desired, live, checked.renewBecause, changes, signal);
    return { ca, certificate, bundle, bundlePem };
  }

  /** Returns when the certificate is next due for renewal. */
  async #ensureCertificate(
    namespace: string,
    issued: IssuedCertificate,
    signing: SigningCa,
    nowMs: number,
    changes: CertificateChange[],
    signal: AbortSignal,
  ): Promise<number> {
    const live = this.#secrets.current({ namespace, name: issued.secretName });
    const stored = storedMaterial(live);
    const problem = certificateProblem(stored, issued.request, signing.bundle.certificates, nowMs);
    let material: CertificateAndKey;
    if (problem === undefined && "material" in stored) {
      material = stored.material;
    } else {
      // Never longer than the CA that signs it: a certificate must not outlive its issuer.
      const validity = validityFrom(nowMs, CERTIFICATE_LIFETIME_MS, signing.certificate.validity.notAfter);
      material = await issueCertificate(signing.ca, issued.request, validity);
    }
    const desired = certificateSecret(namespace, issued.secretName, issued.purpose, {
      ...material,
      caPem: signing.bundlePem,
    });
    await this.#writeIfChanged(desired, live, problem, changes, signal);
    return renewalDueAt(readCertificate(material.certPem).validity);
  }

  async #writeIfChanged(
    desired: Secret,
    live: Frozen<Secret> | undefined,
    issuedBecause: string | undefined,
    changes: CertificateChange[],
    signal: AbortSignal,
  ): Promise<void> {
    if (live && issuedBecause === undefined && !differsFrom(live, desired)) return;
    const name = desired.metadata?.name ?? "";
    try {
      await this.#secrets.write(desired, live, signal);
    } catch (error) {
      throw new Error(`cannot write the certificate Secret ${name}`, { cause: error });
    }
    const bundleChanged = live?.data?.[TLS_SECRET_KEYS.ca] !== desired.data?.[TLS_SECRET_KEYS.ca];
    changes.push(
      issuedBecause !== undefined
        ? { secret: name, change: "issued", reason: issuedBecause }
        : {
            secret: name,
            change: "bundle",
            reason: bundleChanged ? "the CA bundle changed" : "its labels restored",
          },
    );
  }
}
