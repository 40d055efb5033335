// The client's authentication and redirects against loopback HTTP servers that speak distribution's token
// protocol (token.md): docker-registry itself needs a signing token service for Bearer, which this
// repository does not have, so the challenge and token endpoints are played here, byte for byte.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { RegistryClient, RegistryResponseError } from "./registry-client.js";
import type { RegistryEndpoint } from "./registry-endpoint.js";
import { TokenCache } from "./token-cache.js";

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function endpoint(origin: string, repository = "private/disk"): RegistryEndpoint {
  return {
    origin,
    apiRoot: "/v2",
    repository,
    skipVerify: false,
    canResolve: true,
    servesTags: true,
    credentialHost: new URL(origin).host,
  };
}

describe("RegistryClient", () => {
  const registrySeen: Seen[] = [];
  const tokenSeen: Seen[] = [];
  const storageSeen: Seen[] = [];
  let registry: Server;
  let tokens: Server;
  let storage: Server;
  let registryUrl: string;
  let tokenUrl: string;
  let storageUrl: string;
  let expiresIn = 300;

  before(async () => {
    tokens = createServer((request, response) => {
      tokenSeen.push({ url: request.url ?? "", headers: request.headers });
      const basic = `Basic ${Buffer.from("puller:pw").toString("base64")}`;
      const url = new URL(request.url ?? "", "http://x");
      const scope = url.searchParams.get("scope") ?? "";
      if (request.headers.authorization !== undefined && request.headers.authorization !== basic) {
        response
          .writeHead(401, { "content-type": "application/json" })
          .end('{"errors":[{"code":"UNAUTHORIZED","message":"bad credentials"}]}');
        return;
      }
      const who = request.headers.authorization === basic ? "puller" : "anonymous";
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ access_token: `${who}|${scope}`, expires_in: expiresIn }));
    });
    tokenUrl = await listen(tokens);
    storage = createServer((request, response) => {
      storageSeen.push({ url: request.url ?? "", headers: request.headers });
      response.writeHead(200).end("blob bytes");
    });
    storageUrl = await listen(storage);
    registry = createServer((request, response) => {
      registrySeen.push({ url: request.url ?? "", headers: request.headers });
      const repository = request.url?.startsWith("/v2/public/") ? "public/disk" : "private/disk";
      const wanted = repository === "public/disk" ? "anonymous" : "puller";
      if (request.headers.authorization !== `Bearer ${wanted}|repository:${repository}:pull`) {
        response
          .writeHead(401, {
            "content-type": "application/json",
            "www-authenticate": `Bearer realm="${tokenUrl}/token",service="test-registry",scope="repository:${repository}:pull"`,
          })
          .end(
            JSON.stringify({
              errors: [{ code: "UNAUTHORIZED", message: "authentication required", detail: [] }],
            }),
          );
        return;
      }
      if (request.url?.includes("/blobs/")) {
        response.writeHead(307, { location: `${storageUrl}/bucket/blob?signature=1` }).end();
        return;
      }
      response.writeHead(200, { "content-type": "text/plain" }).end("manifest");
    });
    registryUrl = await listen(registry);
  });
  after(() => {
    for (const server of [registry, tokens, storage]) server.close();
  });

  it("fetches a token with the pull secret's credentials, caches it per scope, and retries", async () => {
    const cache = new TokenCache();
    const client = new RegistryClient({
      endpoint: endpoint(registryUrl),
      tokens: cache,
      credentials: { username: "puller", password: "pw" },
    });
    const response = await client.get("manifests/v1");
    response.body.resume();
    assert.equal(response.status, 200);
    assert.equal(tokenSeen.length, 1);
    const tokenRequest = new URL(tokenSeen[0]?.url ?? "", "http://x");
    assert.equal(tokenRequest.searchParams.get("service"), "test-registry");
    assert.equal(tokenRequest.searchParams.get("scope"), "repository:private/disk:pull");
    const before = registrySeen.length;
    (await client.get("manifests/v2")).body.resume();
    assert.equal(tokenSeen.length, 1, "the cached token is used");
    assert.equal(registrySeen.length, before + 1, "without a 401 first");
  });

  it("asks anonymously without credentials; a new scope needs a new token", async () => {
    const cache = new TokenCache();
    const count = tokenSeen.length;
    const client = new RegistryClient({ endpoint: endpoint(registryUrl, "public/disk"), tokens: cache });
    (await client.get("manifests/v1")).body.resume();
    assert.equal(tokenSeen.at(-1)?.headers.authorization, undefined);
    const privateClient = new RegistryClient({ endpoint: endpoint(registryUrl), tokens: cache });
    await assert.rejects(
      privateClient.get("manifests/v1"),
      (e: unknown) =>
        e instanceof RegistryResponseError &&
        e.status === 401 &&
        /unauthorized: authentication required/.test(e.message),
    );
    assert.equal(tokenSeen.length, count + 2);
  });

  it("refetches an expired token", async () => {
    expiresIn = 5;
    let now = 0;
    const cache = new TokenCache(() => now);
    const client = new RegistryClient({
      endpoint: endpoint(registryUrl),
      tokens: cache,
      credentials: { username: "puller", password: "pw" },
    });
    const count = tokenSeen.length;
    (await client.get("manifests/v1")).body.resume();
    now += 60_000;
    (await client.get("manifests/v1")).body.resume();
    assert.equal(tokenSeen.length, count + 2);
    expiresIn = 300;
  });

  it("reports the token service's refusal", async () => {
    const client = new RegistryClient({
      endpoint: endpoint(registryUrl),
      tokens: new TokenCache(),
      credentials: { username: "puller", password: "wrong" },
    });
    await assert.rejects(
      client.get("manifests/v1"),
      /the token service .* refused: unauthorized: bad credentials/,
    );
  });

  it("follows redirects without carrying Authorization to another origin", async () => {
    const client = new RegistryClient({
      endpoint: endpoint(registryUrl),
      tokens: new TokenCache(),
      credentials: { username: "puller", password: "pw" },
    });
    const response = await client.get(`blobs/sha256:${"a".repeat(64)}`);
    let body = "";
    for await (const chunk of response.body) body += chunk;
    assert.equal(body, "blob bytes");
    assert.equal(response.url.origin, storageUrl);
    assert.equal(storageSeen.at(-1)?.headers.authorization, undefined);
    assert.match(String(registrySeen.at(-1)?.headers.authorization), /^Bearer puller\|/);
  });
});
