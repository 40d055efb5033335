import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { backendRequestHeaders, clientResponseHeaders, type ReceivedMessage } from "./proxy-headers.js";

function received(rawHeaders: string[], remoteAddress = "10.0.0.9"): ReceivedMessage {
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2)
    headers[(rawHeaders[i] ?? "").toLowerCase()] = rawHeaders[i + 1] ?? "";
  return { rawHeaders, headers, socket: { remoteAddress } };
}

const alice = {
  username: "alice",
  uid: "42",
  groups: ["devs", "system:authenticated"],
  extra: { "scopes.example.com/x": ["a", "b"] },
};

describe("proxied request headers", () => {
  test("the client's credentials and identity claims are dropped; the authenticated user is sent", () => {
    const headers = backendRequestHeaders(
      received([
        "Authorization",
        "Bearer secret",
        "Impersonate-User",
        "root",
        "X-Remote-User",
        "mallory",
        "x-remote-group",
        "system:masters",
        "X-Remote-Extra-Foo",
        "bar",
        "Accept",
        "application/json",
        "Host",
        "apiserver:6443",
      ]),
      alice,
      { host: "api.ns.svc:443", upgrade: false },
    );
    assert.deepEqual(headers, {
      Accept: "application/json",
      Host: "api.ns.svc:443",
      "X-Remote-User": "alice",
      "X-Remote-Group": ["devs", "system:authenticated"],
      "X-Remote-Extra-scopes.example.com%2Fx": ["a", "b"],
      "X-Forwarded-For": "10.0.0.9",
    });
  });

  test("hop-by-hop headers stay behind, except Connection and Upgrade of an upgrade", () => {
    const raw = [
      "Connection",
      "Upgrade, X-Private",
      "Upgrade",
      "websocket",
      "X-Private",
      "1",
      "Keep-Alive",
      "5",
      "Sec-WebSocket-Key",
      "k",
    ];
    const plain = backendRequestHeaders(received(raw), alice, { host: "h", upgrade: false });
    assert.equal(plain.Connection, undefined);
    assert.equal(plain["X-Private"], undefined, "named by Connection");
    assert.equal(plain["Keep-Alive"], undefined);
    const upgrade = backendRequestHeaders(received(raw), alice, { host: "h", upgrade: true });
    assert.deepEqual(
      [upgrade.Connection, upgrade.Upgrade, upgrade["Sec-WebSocket-Key"]],
      ["Upgrade, X-Private", "websocket", "k"],
    );
  });

  test("X-Forwarded-For grows by the client's address", () => {
    const headers = backendRequestHeaders(received(["X-Forwarded-For", "192.0.2.1"]), alice, {
      host: "h",
      upgrade: false,
    });
    assert.equal(headers["X-Forwarded-For"], "192.0.2.1, 10.0.0.9");
  });

  test("the backend's response loses only its hop-by-hop headers", () => {
    const kept = clientResponseHeaders({
      rawHeaders: [
        "Content-Type",
        "application/json",
        "Transfer-Encoding",
        "chunked",
        "Set-Cookie",
        "a",
        "Set-Cookie",
        "b",
      ],
    });
    assert.deepEqual(kept, ["Content-Type", "application/json", "Set-Cookie", "a", "Set-Cookie", "b"]);
  });
});
