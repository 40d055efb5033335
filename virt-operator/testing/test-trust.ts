/**
 * A CA bundle for rendering the strategy in tests: a real CA certificate (the API server may
 * parse a caBundle), issued once per test process by the operator's own issuer.
 */

import { createCertificateAuthority } from "../../runtime/tls/x509.js";
import { CA_LIFETIME_MS, validityFrom } from "../certificates/certificate-lifetimes.js";
import type { IssuedTrust } from "../strategy/install-strategy.js";

const ca = await createCertificateAuthority("kubevirt.io@test", validityFrom(Date.now(), CA_LIFETIME_MS));

export const TEST_TRUST: IssuedTrust = { caBundlePem: ca.certPem };
