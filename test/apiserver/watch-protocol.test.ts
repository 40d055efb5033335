import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";

interface WatchEvent {
  type: string;
  object: {
    kind?: string;
    code?: number;
    reason?: string;
    metadata?: { name?: string; resourceVersion?: string };
  };
}

const events = (body: string): WatchEvent[] =>
  body
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as WatchEvent);

describe("watch protocol", () => {
  let cluster: TestApiServer;
  const configMaps = "/api/v1/namespaces/default/configmaps";
  const create = (name: string, labels: Record<string, string> = {}) =>
    rawRequest(cluster.server, "POST", configMaps, {
      body: JSON.stringify({ metadata: { name, labels } }),
      headers: { "content-type": "application/json" },
    });

  before(async () => {
    cluster = await startTestApiServer();
  });
  after(async () => cluster?.close());

  test("a watch from a resourceVersion replays what came after it, honours selectors, and ends at timeoutSeconds", async () => {
    const list = JSON.parse((await rawRequest(cluster.server, "GET", configMaps)).body) as {
      metadata: { resourceVersion: string };
    };
    await create("a", { team: "x" });
    await create("b", { team: "y" });
    await create("c", { team: "x" });
    const started = Date.now();
    const watched = await rawRequest(
      cluster.server,
      "GET",
      `${configMaps}?watch=true&resourceVersion=${list.metadata.resourceVersion}&labelSelector=team%3Dx&timeoutSeconds=1`,
    );
    assert.equal(watched.status, 200);
    assert.ok(Date.now() - started >= 900, "the stream stays open until timeoutSeconds");
    assert.deepEqual(
      events(watched.body).map((e) => [e.type, e.object.metadata?.name]),
      [
        ["ADDED", "a"],
        ["ADDED", "c"],
      ],
    );
    const byName = await rawRequest(
      cluster.server,
      "GET",
      `${configMaps}?watch=true&fieldSelector=metadata.name%3Db&timeoutSeconds=1`,
    );
    assert.deepEqual(
      events(byName.body).map((e) => [e.type, e.object.metadata?.name]),
      [["ADDED", "b"]],
    );
  });

  test("an object that stops matching the selector is reported as DELETED", async () => {
    const list = JSON.parse((await rawRequest(cluster.server, "GET", configMaps)).body) as {
      metadata: { resourceVersion: string };
    };
    const pending = rawRequest(
      cluster.server,
      "GET",
      `${configMaps}?watch=true&resourceVersion=${list.metadata.resourceVersion}&labelSelector=team%3Dx&timeoutSeconds=1`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await rawRequest(cluster.server, "PATCH", `${configMaps}/a`, {
      body: JSON.stringify({ metadata: { labels: { team: "z" } } }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.deepEqual(
      events((await pending).body).map((e) => [e.type, e.object.metadata?.name]),
      [["DELETED", "a"]],
    );
  });

  test("a watch from a resourceVersion older than the history gets one ERROR 410 event, then the stream closes", async () => {
    await cluster.stop();
    await cluster.restart({ historySize: 2 });
    for (let i = 0; i < 5; i++) await create(`old-${i}`);
    const watched = await rawRequest(cluster.server, "GET", `${configMaps}?watch=true&resourceVersion=1`, {
      timeoutMs: 5_000,
    });
    assert.equal(watched.status, 200);
    const [only, ...rest] = events(watched.body);
    assert.equal(rest.length, 0);
    assert.equal(only?.type, "ERROR");
    assert.equal(only?.object.code, 410);
    assert.equal(only?.object.reason, "Expired");
  });

  test("bookmarks come only when asked for, with sendInitialEvents marking the end of the initial events", async () => {
    const plain = await rawRequest(cluster.server, "GET", `${configMaps}?watch=true&timeoutSeconds=1`);
    assert.ok(events(plain.body).every((e) => e.type !== "BOOKMARK"));
    const streaming = await rawRequest(
      cluster.server,
      "GET",
      `${configMaps}?watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`,
    );
    const received = events(streaming.body);
    const bookmark = received.find((e) => e.type === "BOOKMARK");
    assert.ok(bookmark, "a bookmark ends the initial events");
    assert.ok(received.indexOf(bookmark) > 0);
  });
});
