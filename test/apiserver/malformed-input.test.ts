import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";

interface Status {
  kind: string;
  status: string;
  reason: string;
  code: number;
}

describe("malformed and hostile input", () => {
  let cluster: TestApiServer;
  const configMaps = "/api/v1/namespaces/default/configmaps";

  before(async () => {
    cluster = await startTestApiServer();
    await rawRequest(cluster.server, "POST", configMaps, {
      body: JSON.stringify({ metadata: { name: "keep" }, data: { a: "1" } }),
      headers: { "content-type": "application/json" },
    });
  });
  after(async () => cluster?.close());

  test("a request without a valid token gets 401 as a Status", async () => {
    for (const token of [null, "wrong", ""]) {
      const response = await rawRequest(cluster.server, "GET", configMaps, { token });
      assert.equal(response.status, 401);
      assert.equal((JSON.parse(response.body) as Status).reason, "Unauthorized");
    }
  });

  const cases: [string, string, string, string | Buffer, number][] = [
    ["POST", configMaps, "application/json", "{not json", 400],
    ["POST", configMaps, "application/json", "[]", 400],
    ["POST", configMaps, "application/json", "null", 400],
    ["POST", configMaps, "application/json", '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}}', 400],
    ["POST", configMaps, "application/json", '{"metadata":"nope"}', 422],
    ["POST", configMaps, "application/json", '{"metadata":{}}', 422],
    ["PUT", `${configMaps}/keep`, "application/json", '{"metadata":{"name":"other"}}', 400],
    ["PATCH", `${configMaps}/keep`, "application/json-patch+json", '{"data":{}}', 400],
    [
      "PATCH",
      `${configMaps}/keep`,
      "application/json-patch+json",
      '[{"op":"replace","path":"/__proto__/x","value":1}]',
      422,
    ],
    ["PATCH", `${configMaps}/keep`, "application/json-patch+json", '[{"op":"explode","path":"/data"}]', 422],
    ["PATCH", `${configMaps}/keep`, "application/merge-patch+json", '{"data":{"a":5}}', 422],
    ["PATCH", `${configMaps}/keep`, "text/plain", "hello", 415],
    ["PATCH", `${configMaps}/keep`, "application/apply-patch+yaml", "data: [", 400],
    ["GET", `${configMaps}?labelSelector=a%20in%20(`, "application/json", "", 400],
    ["GET", `${configMaps}?fieldSelector=spec.bogus%3D1`, "application/json", "", 400],
    ["GET", `${configMaps}?limit=-3`, "application/json", "", 400],
    ["GET", `${configMaps}?continue=garbage`, "application/json", "", 400],
    ["GET", "/api/v1/namespaces/default/nonsense", "application/json", "", 404],
    ["GET", "/apis/nowhere.io/v1/things", "application/json", "", 404],
    ["DELETE", `${configMaps}/keep`, "application/json", '{"propagationPolicy":"Sideways"}', 400],
  ];
  for (const [method, path, contentType, body, expected] of cases) {
    test(`${method} ${path} with ${contentType} ${String(body).slice(0, 40)} → ${expected} Status`, async () => {
      const response = await rawRequest(cluster.server, method, path, {
        body,
        headers: { "content-type": contentType },
      });
      assert.equal(response.status, expected, response.body);
      const status = JSON.parse(response.body) as Status;
      assert.equal(status.kind, "Status");
      assert.equal(status.code, expected);
    });
  }

  test("a body over 3 MiB gets 413", async () => {
    const body = JSON.stringify({
      metadata: { name: "huge" },
      data: { a: "x".repeat(3 * 1024 * 1024 + 10) },
    });
    const response = await rawRequest(cluster.server, "POST", configMaps, {
      body,
      headers: { "content-type": "application/json" },
    });
    assert.equal(response.status, 413);
    assert.equal((JSON.parse(response.body) as Status).reason, "RequestEntityTooLarge");
  });

  test("random bytes and mutated JSON never crash the server nor touch stored objects", async () => {
    const seedObject = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "fuzz" },
      data: { k: "v" },
    });
    const contentTypes = [
      "application/json",
      "application/merge-patch+json",
      "application/strategic-merge-patch+json",
      "application/json-patch+json",
      "application/apply-patch+yaml",
    ];
    for (let i = 0; i < 300; i++) {
      const mutated = Buffer.from(seedObject);
      for (let flips = 0; flips < 1 + (i % 5); flips++)
        mutated[Math.floor(Math.random() * mutated.length)] = randomBytes(1)[0] ?? 0;
      const body = i % 3 === 0 ? randomBytes(1 + (i % 200)) : mutated;
      const contentType = contentTypes[i % contentTypes.length] ?? "application/json";
      const [method, path] =
        i % 2 === 0 ? ["POST", configMaps] : ["PATCH", `${configMaps}/keep?fieldManager=fuzz`];
      const response = await rawRequest(cluster.server, method, path, {
        body,
        headers: { "content-type": contentType },
      });
      assert.ok(response.status < 500, `${method} ${contentType} gave ${response.status}: ${response.body}`);
      if (response.status >= 400) assert.equal((JSON.parse(response.body) as Status).kind, "Status");
    }
    const keep = JSON.parse((await rawRequest(cluster.server, "GET", `${configMaps}/keep`)).body) as {
      kind: string;
      metadata: { name: string };
    };
    assert.equal(keep.kind, "ConfigMap");
    const list = await rawRequest(cluster.server, "GET", configMaps);
    assert.equal(list.status, 200);
  });
});
