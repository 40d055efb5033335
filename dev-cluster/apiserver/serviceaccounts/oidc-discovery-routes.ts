import type { FastifyInstance } from "fastify";
import type { ServiceAccountTokens } from "./service-account-tokens.js";

/**
 * Service-account issuer discovery (kube's ServiceAccountIssuerDiscovery): the OpenID
 * configuration and the key set, for relying parties that verify tokens themselves. Like
 * kube-apiserver by default, they are for authenticated clients only.
 */
export function registerOidcDiscoveryRoutes(
  app: FastifyInstance,
  tokens: ServiceAccountTokens,
  serverUrl: () => string,
): void {
  app.get("/.well-known/openid-configuration", (_request, reply) =>
    reply
      .type("application/json")
      .header("cache-control", "public, max-age=3600")
      .send(JSON.stringify(tokens.openIdConfiguration(serverUrl()))),
  );
  app.get("/openid/v1/jwks", (_request, reply) =>
    reply
      .type("application/jwk-set+json")
      .header("cache-control", "public, max-age=3600")
      .send(JSON.stringify(tokens.jwks())),
  );
}
