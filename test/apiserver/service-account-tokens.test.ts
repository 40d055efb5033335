import assert from "node:assert/strict";
import { createPublicKey, verify } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CoreV1Api } from "@kubernetes/client-node";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";

const ISSUER = "https://kubernetes.default.svc.cluster.local";

interface Claims {
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  iss: string;
  jti: string;
  sub: string;
  "kubernetes.io": {
    namespace: string;
    serviceaccount: { name: string; uid: string };
    pod?: { name: string; uid: string };
    node?: { name: string; uid?: string };
  };
}

function decode(token: string): { header: { alg: string; kid: string }; claims: Claims } {
  const [header = "", payload = ""] = token.split(".");
  const json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  return { header: json(header), claims: json(payload) };
}

describe("service-account tokens with kubectl and client-node", () => {
  let cluster: TestApiServer;
  const kubectlOk = async (...args: string[]): Promise<string> => {
    const result = await cluster.kubectl(args);
    assert.equal(result.code, 0, `kubectl ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };
  const createToken = async (...args: string[]) => (await kubectlOk("create", "token", ...args)).trim();
  /** The status of GET /apis with the token as the only credential. */
  const statusWith = async (token: string) =>
    (await rawRequest(cluster.server, "GET", "/apis", { token })).status;
  const uidOf = async (kind: string, name: string) =>
    kubectlOk("get", kind, name, "-o", "jsonpath={.metadata.uid}");

  before(async () => {
    cluster = await startTestApiServer({ inMemory: false });
    await kubectlOk("create", "serviceaccount", "default");
    await kubectlOk("create", "serviceaccount", "builder");
  });
  after(async () => cluster?.close());

  test("kubectl create token prints a JWT with kube's claims that authenticates", async () => {
    const token = await createToken("default");
    const { header, claims } = decode(token);
    assert.equal(header.alg, "ES256");
    const { exp, iat, nbf, jti, ...rest } = claims;
    assert.equal(exp - iat, 3600);
    assert.equal(nbf, iat);
    assert.ok(Math.abs(iat - Date.now() / 1000) < 30);
    assert.match(jti, /^[0-9a-f-]{36}$/);
    assert.deepEqual(rest, {
      aud: [ISSUER],
      iss: ISSUER,
      sub: "system:serviceaccount:default:default",
      "kubernetes.io": {
        namespace: "default",
        serviceaccount: { name: "default", uid: await uidOf("sa", "default") },
      },
    });
    assert.equal(await statusWith(token), 200);
    const withoutRoles = await cluster.kubectl(["--token", token, "get", "namespaces", "-o", "name"]);
    assert.match(
      withoutRoles.stderr,
      /User "system:serviceaccount:default:default" cannot list resource "namespaces"/,
    );
    await kubectlOk(
      "create",
      "clusterrolebinding",
      "default-views",
      "--clusterrole=view",
      "--serviceaccount=default:default",
    );
    const asServiceAccount = await cluster.kubectl(["--token", token, "get", "namespaces", "-o", "name"]);
    assert.equal(asServiceAccount.code, 0, asServiceAccount.stderr);
    assert.match(asServiceAccount.stdout, /namespace\/default/);
  });

  test("a forged or foreign token is a 401", async () => {
    const token = await createToken("builder");
    const [head, body, signature = ""] = token.split(".");
    const claims = JSON.parse(Buffer.from(body ?? "", "base64url").toString()) as Claims;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "system:serviceaccount:kube-system:admin" }));
    const flipped = `${signature.slice(0, 20)}${signature[20] === "A" ? "B" : "A"}${signature.slice(21)}`;
    for (const bad of [
      `${head}.${forged.toString("base64url")}.${signature}`,
      `${head}.${body}.${flipped}`,
    ]) {
      assert.equal(await statusWith(bad), 401);
    }
    const forOthers = await createToken("builder", "--audience=https://vault.example");
    assert.deepEqual(decode(forOthers).claims.aud, ["https://vault.example"]);
    assert.equal(await statusWith(forOthers), 401, "a token for another audience is not for the API server");
  });

  test("--duration sets the lifetime; below ten minutes is refused", async () => {
    const { claims } = decode(await createToken("builder", "--duration=20m"));
    assert.equal(claims.exp - claims.iat, 1200);
    const short = await cluster.kubectl(["create", "token", "builder", "--duration=5m"]);
    assert.notEqual(short.code, 0);
    assert.match(
      short.stderr,
      /spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes/,
    );
  });

  test("a pod-bound token names the pod and dies with it", async () => {
    await kubectlOk(
      "run",
      "worker",
      "--image=busybox",
      "--overrides",
      '{"spec":{"serviceAccountName":"builder"}}',
    );
    const podUid = await uidOf("pod", "worker");
    const token = await createToken("builder", "--bound-object-kind=Pod", "--bound-object-name=worker");
    assert.deepEqual(decode(token).claims["kubernetes.io"].pod, { name: "worker", uid: podUid });
    assert.equal(await statusWith(token), 200);

    const staleUid = await cluster.kubectl([
      "create",
      "token",
      "builder",
      "--bound-object-kind=Pod",
      "--bound-object-name=worker",
      "--bound-object-uid=0d4691ed-659b-4935-a832-355f77ee47cc",
    ]);
    assert.match(
      staleUid.stderr,
      /the UID in the bound object reference \(0d4691ed-659b-4935-a832-355f77ee47cc\) does not match/,
    );
    const otherAccount = await cluster.kubectl([
      "create",
      "token",
      "default",
      "--bound-object-kind=Pod",
      "--bound-object-name=worker",
    ]);
    assert.match(
      otherAccount.stderr,
      /cannot bind token for serviceaccount "default" to pod running with different serviceaccount name/,
    );

    await kubectlOk("delete", "pod", "worker", "--grace-period=0", "--force");
    assert.equal(await statusWith(token), 401);
  });

  test("client-node's createNamespacedServiceAccountToken (JSON) works too, and a Secret-bound token dies with the Secret", async () => {
    await kubectlOk("create", "secret", "generic", "anchor", "--from-literal=a=b");
    const api = cluster.kubeConfig().makeApiClient(CoreV1Api);
    const answer = await api.createNamespacedServiceAccountToken({
      name: "builder",
      namespace: "default",
      body: { spec: { audiences: [], boundObjectRef: { kind: "Secret", apiVersion: "v1", name: "anchor" } } },
    });
    const token = answer.status?.token ?? "";
    assert.equal(answer.spec.expirationSeconds, 3600);
    assert.ok(answer.status?.expirationTimestamp instanceof Date);
    assert.equal(await statusWith(token), 200);
    await kubectlOk("delete", "secret", "anchor");
    assert.equal(await statusWith(token), 401);
  });

  test("issuer discovery serves the key that verifies the tokens", async () => {
    const token = await createToken("builder");
    const config = await rawRequest(cluster.server, "GET", "/.well-known/openid-configuration");
    assert.equal(config.status, 200);
    const { issuer, jwks_uri } = JSON.parse(config.body) as { issuer: string; jwks_uri: string };
    assert.equal(issuer, ISSUER);
    assert.equal(jwks_uri, `${cluster.server.url}/openid/v1/jwks`);
    const jwks = await rawRequest(cluster.server, "GET", "/openid/v1/jwks");
    assert.match(String(jwks.headers["content-type"]), /^application\/jwk-set\+json/);
    const { keys } = JSON.parse(jwks.body) as { keys: ({ kid: string } & Record<string, string>)[] };
    const key = keys.find((candidate) => candidate.kid === decode(token).header.kid);
    assert.ok(key, "the token's kid is in the key set");
    const [head, body, signature = ""] = token.split(".");
    const publicKey = createPublicKey({ key, format: "jwk" });
    const valid = verify(
      "sha256",
      Buffer.from(`${head}.${body}`),
      { key: publicKey, dsaEncoding: "ieee-p1363" },
      Buffer.from(signature, "base64url"),
    );
    assert.equal(valid, true);
    assert.equal((await rawRequest(cluster.server, "GET", "/openid/v1/jwks", { token: null })).status, 401);
  });

  test("tokens survive a restart (the signing key is kept); they die with their service account", async () => {
    const token = await createToken("default");
    assert.equal((await stat(join(cluster.dataDir, "pki", "sa.key"))).mode & 0o777, 0o600);
    await cluster.stop();
    await cluster.restart();
    assert.equal(await statusWith(token), 200);
    await kubectlOk("delete", "serviceaccount", "default");
    assert.equal(await statusWith(token), 401);
    await kubectlOk("create", "serviceaccount", "default");
    assert.equal(await statusWith(token), 401, "a new service account of the same name has another uid");
  });
});
