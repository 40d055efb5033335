import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";

interface List {
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: { metadata: { name: string } }[];
}

describe("list paging with limit and continue", () => {
  let cluster: TestApiServer;
  const configMaps = "/api/v1/namespaces/default/configmaps";

  before(async () => {
    cluster = await startTestApiServer();
    for (let i = 0; i < 7; i++) {
      await rawRequest(cluster.server, "POST", configMaps, {
        body: JSON.stringify({ metadata: { name: `page-${i}`, labels: { odd: String(i % 2 === 1) } } }),
        headers: { "content-type": "application/json" },
      });
    }
  });
  after(async () => cluster?.close());

  async function pages(
    query: string,
  ): Promise<{ names: string[]; pages: number; remaining: (number | undefined)[] }> {
    const names: string[] = [];
    const remaining: (number | undefined)[] = [];
    let token: string | undefined;
    let count = 0;
    do {
      const suffix = token ? `&continue=${encodeURIComponent(token)}` : "";
      const list = JSON.parse(
        (await rawRequest(cluster.server, "GET", `${configMaps}?${query}${suffix}`)).body,
      ) as List;
      names.push(...list.items.map((item) => item.metadata.name));
      remaining.push(list.metadata.remainingItemCount);
      token = list.metadata.continue;
      count++;
    } while (token && count < 20);
    return { names, pages: count, remaining };
  }

  test("pages of 3 return every object once, in order, with the count of what remains", async () => {
    const result = await pages("limit=3");
    assert.deepEqual(
      result.names,
      Array.from({ length: 7 }, (_, i) => `page-${i}`),
    );
    assert.equal(result.pages, 3);
    assert.deepEqual(result.remaining, [4, 1, undefined]);
  });

  test("paging combines with label selectors", async () => {
    const result = await pages("limit=2&labelSelector=odd%3Dtrue");
    assert.deepEqual(result.names, ["page-1", "page-3", "page-5"]);
    assert.equal(result.pages, 2);
  });

  test("kubectl pages through a long list with --chunk-size", async () => {
    const listed = await cluster.kubectl(["get", "configmaps", "--chunk-size=2", "-o", "name"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(
      listed.stdout
        .trim()
        .split("\n")
        .filter((line) => line.startsWith("configmap/page-")).length,
      7,
    );
  });
});
