import type { Authenticator } from "../auth/authenticator.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import { generateSigningKeyPem, type SigningKey, signingKeyFromPem } from "./signing-key.js";
import { DEFAULT_ISSUER } from "./token-claims.js";
import { createTokenRequest } from "./token-request.js";
import { serviceAccountTokenAuthenticator } from "./token-validation.js";

export interface ServiceAccountTokenSettings {
  /** PEM of the EC P-256 signing key; a fresh one when absent (tokens then die with the server). */
  signingKeyPem?: string;
  /** `--service-account-issuer`: the `iss` of the tokens (default https://kubernetes.default.svc.cluster.local). */
  issuer?: string;
  /** `--api-audiences`: what a token must be for to authenticate here, and the audience of tokens that ask for none (default: the issuer). */
  audiences?: string[];
}

/**
 * Bound service-account tokens: the TokenRequest API that issues them, the authenticator that
 * accepts them, and the OIDC discovery documents that let others verify them.
 */
export class ServiceAccountTokens {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly authenticator: Authenticator;
  readonly #key: SigningKey;
  readonly #service: ObjectService;

  constructor(service: ObjectService, settings: ServiceAccountTokenSettings = {}) {
    this.#service = service;
    this.#key = signingKeyFromPem(settings.signingKeyPem ?? generateSigningKeyPem());
    this.issuer = settings.issuer ?? DEFAULT_ISSUER;
    this.audiences =
      settings.audiences && settings.audiences.length > 0 ? [...settings.audiences] : [this.issuer];
    this.authenticator = serviceAccountTokenAuthenticator({
      service,
      key: this.#key,
      issuer: this.issuer,
      audiences: this.audiences,
    });
  }

  /** Answers POST serviceaccounts/<name>/token with the TokenRequest `body` (see createTokenRequest). */
  createToken(namespace: string, serviceAccountName: string, body: JsonValue): JsonObject {
    const options = {
      service: this.#service,
      key: this.#key,
      issuer: this.issuer,
      audiences: this.audiences,
    };
    return createTokenRequest(options, namespace, serviceAccountName, body);
  }

  /** `/.well-known/openid-configuration`, as kube-apiserver serves it. */
  openIdConfiguration(serverUrl: string): JsonObject {
    return {
      issuer: this.issuer,
      jwks_uri: `${serverUrl}/openid/v1/jwks`,
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
    };
  }

  /** `/openid/v1/jwks`: the public key as a JSON Web Key Set. */
  jwks(): JsonObject {
    const jwk = this.#key.publicKey.export({ format: "jwk" }) as Record<string, JsonValue>;
    return { keys: [{ use: "sig", kid: this.#key.keyId, alg: "ES256", ...jwk }] };
  }
}
