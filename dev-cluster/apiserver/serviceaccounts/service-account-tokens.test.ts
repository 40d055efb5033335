import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import { builtinResourceTypes } from "../builtin/builtin-resource-types.js";
import type { JsonObject } from "../json.js";
import { ObjectService } from "../objects/object-service.js";
import { ResourceRegistry } from "../registry/resource-registry.js";
import { ObjectStore } from "../storage/object-store.js";
import { parseJwt, signJwt } from "./jwt.js";
import { ServiceAccountTokens } from "./service-account-tokens.js";
import { generateSigningKeyPem, signingKeyFromPem } from "./signing-key.js";
import { validateServiceAccountToken } from "./token-validation.js";

const ISSUER = "https://kubernetes.default.svc.cluster.local";

describe("service-account tokens", () => {
  let clock = new Date("2026-01-01T00:00:00Z");
  let store: ObjectStore;
  let service: ObjectService;
  let tokens: ServiceAccountTokens;
  const keyPem = generateSigningKeyPem();
  const type = (plural: string) => {
    const found = service.registry.find("", "v1", plural);
    assert.ok(found, plural);
    return found;
  };
  const create = (plural: string, namespace: string, object: JsonObject): JsonObject =>
    service.create(type(plural), namespace, object, { fieldManager: "test" }).object;
  const uid = (object: JsonObject) => String((object.metadata as JsonObject).uid);
  /** Removes an object from storage at once (no finalizers, no grace period). */
  const remove = (plural: string, namespace: string, name: string) => {
    const key = service.key(type(plural), namespace, name);
    const object = service.store.get(key);
    assert.ok(object, `${plural} ${name}`);
    service.store.commit([{ type: "delete", key, object }]);
  };
  const issue = (name: string, spec: JsonObject = {}): string => {
    const answer = tokens.createToken("default", name, { spec });
    return String((answer.status as JsonObject).token);
  };
  const outcome = (token: string) =>
    validateServiceAccountToken(token, {
      service,
      key: signingKeyFromPem(keyPem),
      issuer: ISSUER,
      audiences: [ISSUER],
    });
  const errorOf = (token: string) => {
    const result = outcome(token);
    return result && "error" in result ? result.error : undefined;
  };

  beforeEach(() => {
    clock = new Date("2026-01-01T00:00:00Z");
    store = new ObjectStore({ path: ":memory:" });
    service = new ObjectService({
      store,
      registry: new ResourceRegistry(builtinResourceTypes()),
      now: () => clock,
    });
    create("namespaces", "", { metadata: { name: "default" } });
    tokens = new ServiceAccountTokens(service, { signingKeyPem: keyPem });
  });
  after(() => store?.close());

  test("a token authenticates as its service account, with kube's groups", () => {
    const account = create("serviceaccounts", "default", { metadata: { name: "builder" } });
    const header = `Bearer ${issue("builder")}`;
    assert.deepEqual(tokens.authenticator.authenticate(header), {
      username: "system:serviceaccount:default:builder",
      uid: uid(account),
      groups: ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
    });
  });

  test("the TokenRequest answer carries kube's claims and the expiration", () => {
    const account = create("serviceaccounts", "default", { metadata: { name: "builder" } });
    const answer = tokens.createToken("default", "builder", { spec: { expirationSeconds: 1200 } });
    assert.deepEqual(answer.metadata, {
      name: "builder",
      namespace: "default",
      creationTimestamp: "2026-01-01T00:00:00Z",
    });
    assert.deepEqual(answer.spec, { audiences: [ISSUER], expirationSeconds: 1200 });
    const status = answer.status as JsonObject;
    assert.equal(status.expirationTimestamp, "2026-01-01T00:20:00Z");
    const jwt = parseJwt(String(status.token));
    assert.ok(jwt);
    assert.equal(jwt.header.alg, "ES256");
    const { jti, ...claims } = jwt.payload;
    assert.match(String(jti), /^[0-9a-f-]{36}$/);
    const iat = Date.parse("2026-01-01T00:00:00Z") / 1000;
    assert.deepEqual(claims, {
      aud: [ISSUER],
      exp: iat + 1200,
      iat,
      iss: ISSUER,
      "kubernetes.io": { namespace: "default", serviceaccount: { name: "builder", uid: uid(account) } },
      nbf: iat,
      sub: "system:serviceaccount:default:builder",
    });
  });

  test("time, audience and signature are checked, with a minute of leeway", () => {
    create("serviceaccounts", "default", { metadata: { name: "builder" } });
    const token = issue("builder", { expirationSeconds: 600 });
    clock = new Date(clock.getTime() + 659_000);
    assert.equal(errorOf(token), undefined, "within the leeway");
    clock = new Date(clock.getTime() + 2_000);
    assert.equal(errorOf(token), "service account token has expired");

    clock = new Date("2026-01-01T00:00:00Z");
    const otherAudience = issue("builder", { audiences: ["vault"] });
    assert.match(String(errorOf(otherAudience)), /token audiences \["vault"\] is invalid/);

    const [head, body, signature = ""] = token.split(".");
    const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
    assert.equal(errorOf(`${head}.${body}.${flipped}`), "invalid signature");
    const payload = JSON.parse(Buffer.from(body ?? "", "base64url").toString()) as JsonObject;
    const forged = Buffer.from(
      JSON.stringify({ ...payload, sub: "system:serviceaccount:default:admin" }),
    ).toString("base64url");
    assert.equal(errorOf(`${head}.${forged}.${signature}`), "invalid signature");
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${body}.${signature}`;
    assert.equal(errorOf(unsigned), "invalid signature", "alg none is refused");
    const otherKey = signJwt(payload, signingKeyFromPem(generateSigningKeyPem()));
    assert.equal(errorOf(otherKey), "invalid signature");
  });

  test("tokens of other issuers and opaque tokens are left to other authenticators", () => {
    const key = signingKeyFromPem(keyPem);
    assert.equal(outcome(signJwt({ iss: "https://elsewhere" }, key)), undefined);
    assert.equal(outcome("not-a-jwt"), undefined);
    assert.equal(outcome("a.b.c"), undefined);
  });

  test("a token dies with its service account, even when one of the same name is made again", () => {
    create("serviceaccounts", "default", { metadata: { name: "builder" } });
    const token = issue("builder");
    remove("serviceaccounts", "default", "builder");
    assert.equal(errorOf(token), 'serviceaccounts "builder" not found');
    create("serviceaccounts", "default", { metadata: { name: "builder" } });
    assert.match(String(errorOf(token)), /^service account UID \(.+\) does not match claim/);
  });

  test("a pod-bound token names the pod and its node, and dies with the pod", () => {
    create("serviceaccounts", "default", { metadata: { name: "builder" } });
    const node = create("nodes", "", { metadata: { name: "node-a" } });
    const pod = create("pods", "default", {
      metadata: { name: "worker" },
      spec: {
        serviceAccountName: "builder",
        nodeName: "node-a",
        containers: [{ name: "c", image: "busybox" }],
      },
    });
    const token = issue("builder", { boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "worker" } });
    const claims = parseJwt(token)?.payload["kubernetes.io"] as JsonObject;
    assert.deepEqual(claims.pod, { name: "worker", uid: uid(pod) });
    assert.deepEqual(claims.node, { name: "node-a", uid: uid(node) });
    assert.equal(errorOf(token), undefined);

    // A pod being deleted keeps its token for a minute of leeway.
    const terminating = structuredClone(pod);
    (terminating.metadata as JsonObject).deletionTimestamp = "2026-01-01T00:00:00Z";
    service.store.commit([
      { type: "put", key: service.key(type("pods"), "default", "worker"), object: terminating },
    ]);
    assert.equal(errorOf(token), undefined);
    clock = new Date(clock.getTime() + 61_000);
    assert.equal(errorOf(token), "service account token has been invalidated");
    remove("pods", "default", "worker");
    assert.equal(errorOf(token), "service account token has been invalidated");
  });

  test("secret- and node-bound tokens die with their object", () => {
    create("serviceaccounts", "default", { metadata: { name: "builder" } });
    create("secrets", "default", { metadata: { name: "s" } });
    create("nodes", "", { metadata: { name: "node-b" } });
    const bySecret = issue("builder", { boundObjectRef: { kind: "Secret", apiVersion: "v1", name: "s" } });
    const byNode = issue("builder", { boundObjectRef: { kind: "Node", apiVersion: "v1", name: "node-b" } });
    assert.equal(errorOf(bySecret), undefined);
    assert.equal(errorOf(byNode), undefined);
    remove("secrets", "default", "s");
    remove("nodes", "", "node-b");
    assert.equal(errorOf(bySecret), "service account token has been invalidated");
    assert.equal(errorOf(byNode), "service account token has been invalidated");
  });

  const refused: [string, JsonObject, number, RegExp][] = [
    [
      "a short expiration",
      { spec: { expirationSeconds: 599 } },
      422,
      /may not specify a duration less than 10 minutes/,
    ],
    ["a huge expiration", { spec: { expirationSeconds: 2 ** 32 + 1 } }, 422, /larger than 2\^32 seconds/],
    [
      "another name in metadata",
      { metadata: { name: "x" } },
      422,
      /metadata.name: Invalid value: "x": must match the service account name/,
    ],
    [
      "another namespace in metadata",
      { metadata: { namespace: "x" } },
      422,
      /metadata.namespace: Invalid value: "x"/,
    ],
    ["another kind", { kind: "Pod" }, 400, /does not match the expected kind \(TokenRequest\)/],
    [
      "a ConfigMap to bind to",
      { spec: { boundObjectRef: { kind: "ConfigMap", apiVersion: "v1", name: "c" } } },
      400,
      /^cannot bind token to object of type \/v1, Kind=ConfigMap$/,
    ],
    [
      "a missing pod",
      { spec: { boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "gone" } } },
      404,
      /pods "gone" not found/,
    ],
    [
      "a pod of another service account",
      { spec: { boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "other" } } },
      400,
      /cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name\./,
    ],
    [
      "a stale uid",
      { spec: { boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "mine", uid: "old" } } },
      409,
      /Operation cannot be fulfilled on Pod "mine": the UID in the bound object reference \(old\) does not match/,
    ],
  ];
  for (const [name, body, code, message] of refused) {
    test(`a TokenRequest with ${name} is a ${code}`, () => {
      create("serviceaccounts", "default", { metadata: { name: "builder" } });
      const containers = [{ name: "c", image: "busybox" }];
      create("pods", "default", {
        metadata: { name: "other" },
        spec: { serviceAccountName: "x", containers },
      });
      create("pods", "default", {
        metadata: { name: "mine" },
        spec: { serviceAccountName: "builder", containers },
      });
      assert.throws(
        () => tokens.createToken("default", "builder", body),
        (error: unknown) => error instanceof ApiError && error.code === code && message.test(error.message),
      );
    });
  }

  test("a service account that does not exist is a 404", () => {
    assert.throws(() => tokens.createToken("default", "nobody", {}), /serviceaccounts "nobody" not found/);
  });

  test("the key set holds the key that verifies the tokens", () => {
    const jwks = tokens.jwks();
    const [key] = jwks.keys as JsonObject[];
    assert.equal(key?.kid, signingKeyFromPem(keyPem).keyId);
    assert.deepEqual([key?.kty, key?.crv, key?.alg, key?.use], ["EC", "P-256", "ES256", "sig"]);
    assert.equal(key?.d, undefined, "no private part");
    assert.equal(tokens.openIdConfiguration("https://h:1").jwks_uri, "https://h:1/openid/v1/jwks");
  });
});
