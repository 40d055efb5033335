// Manifest checks against a loopback server that sends what a broken or hostile registry could: a
// Content-Type contradicting the body, a body not matching its digest, an oversized manifest.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import {
  DOCKER_MANIFEST,
  fetchImageManifest,
  MANIFEST_MAX_BYTES,
  ManifestError,
  OCI_INDEX,
  OCI_MANIFEST,
} from "./manifests.js";
import { RegistryClient } from "./registry-client.js";
import { TokenCache } from "./token-cache.js";

const sha = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const LAYER = {
  mediaType: "application/vnd.oci.image.layer.v1.tar",
  digest: `sha256:${"c".repeat(64)}`,
  size: 10,
};
const manifest = Buffer.from(
  JSON.stringify({ schemaVersion: 2, mediaType: OCI_MANIFEST, config: LAYER, layers: [LAYER] }),
);
const index = Buffer.from(
  JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: [
      {
        mediaType: "application/vnd.example.unknown",
        digest: sha(Buffer.from("x")),
        size: 1,
        platform: { os: "linux", architecture: "amd64" },
      },
      {
        mediaType: OCI_MANIFEST,
        digest: sha(manifest),
        size: manifest.length,
        platform: { os: "linux", architecture: "amd64" },
      },
    ],
  }),
);

const documents: Record<string, { type: string; body: Buffer; digestHeader?: string }> = {
  good: { type: OCI_MANIFEST, body: manifest },
  [sha(manifest)]: { type: OCI_MANIFEST, body: manifest },
  index: { type: OCI_INDEX, body: index },
  "wrong-type": { type: DOCKER_MANIFEST, body: manifest },
  "wrong-header": { type: OCI_MANIFEST, body: manifest, digestHeader: sha(Buffer.from("other")) },
  [sha(Buffer.from("asked"))]: { type: OCI_MANIFEST, body: manifest },
  huge: { type: OCI_MANIFEST, body: Buffer.alloc(MANIFEST_MAX_BYTES + 1, " ") },
  schema1: {
    type: "application/vnd.docker.distribution.manifest.v1+prettyjws",
    body: Buffer.from('{"schemaVersion":1}'),
  },
};

describe("fetchImageManifest", () => {
  let server: Server;
  let client: RegistryClient;
  before(async () => {
    server = createServer((request, response) => {
      const name = decodeURIComponent((request.url ?? "").split("/manifests/")[1] ?? "");
      const document = documents[name];
      if (document === undefined) {
        response
          .writeHead(404, { "content-type": "application/json" })
          .end('{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}');
        return;
      }
      const headers: Record<string, string> = { "content-type": `${document.type}; charset=utf-8` };
      if (document.digestHeader) headers["docker-content-digest"] = document.digestHeader;
      response.writeHead(200, headers).end(document.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new RegistryClient({
      endpoint: {
        origin,
        apiRoot: "/v2",
        repository: "r",
        skipVerify: false,
        canResolve: true,
        servesTags: true,
        credentialHost: "x",
      },
      tokens: new TokenCache(),
    });
  });
  after(() => server.close());

  it("reads a manifest and follows an index past unknown entries", async () => {
    assert.deepEqual(await fetchImageManifest(client, "good", "amd64"), {
      digest: sha(manifest),
      digests: [sha(manifest)],
      layers: [LAYER],
    });
    const viaIndex = await fetchImageManifest(client, "index", "amd64");
    assert.deepEqual(viaIndex.digests, [sha(index), sha(manifest)]);
  });

  const refused: [string, RegExp][] = [
    [
      "wrong-type",
      /mediaType application\/vnd.oci.image.manifest.v1\+json differs from its Content-Type application\/vnd.docker/,
    ],
    ["wrong-header", /the registry says the manifest is sha256:\w+ but its bytes are/],
    [sha(Buffer.from("asked")), /asked for as sha256:\w+ has digest/],
    ["huge", /larger than 4194304 bytes/],
    ["schema1", /unsupported manifest type/],
  ];
  for (const [name, why] of refused) {
    it(`refuses ${name.slice(0, 20)}`, async () => {
      await assert.rejects(
        fetchImageManifest(client, name, "amd64"),
        (e: unknown) => e instanceof ManifestError && why.test(e.message),
      );
    });
  }

  it("names the platforms an index offers when none fits", async () => {
    await assert.rejects(
      fetchImageManifest(client, "index", "arm64"),
      /no linux\/arm64 image \(it has linux\/amd64\)/,
    );
  });
});
