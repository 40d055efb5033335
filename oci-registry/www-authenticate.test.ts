import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseWwwAuthenticate } from "./www-authenticate.js";

describe("parseWwwAuthenticate", () => {
  const cases: [string, ReturnType<typeof parseWwwAuthenticate>][] = [
    [
      'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/alpine:pull"',
      [
        {
          scheme: "bearer",
          params: {
            realm: "https://auth.docker.io/token",
            service: "registry.docker.io",
            scope: "repository:library/alpine:pull",
          },
        },
      ],
    ],
    ['Basic realm="Registry Realm"', [{ scheme: "basic", params: { realm: "Registry Realm" } }]],
    [
      'Basic realm="a, b", Bearer realm=https://t.example/token, error="invalid_token"',
      [
        { scheme: "basic", params: { realm: "a, b" } },
        { scheme: "bearer", params: { realm: "https://t.example/token", error: "invalid_token" } },
      ],
    ],
    ['BEARER Realm = "x\\"y"', [{ scheme: "bearer", params: { realm: 'x"y' } }]],
    ["Negotiate", [{ scheme: "negotiate", params: {} }]],
    ["", []],
  ];
  for (const [header, expected] of cases) {
    it(`reads ${JSON.stringify(header)}`, () => assert.deepEqual(parseWwwAuthenticate(header), expected));
  }
});
