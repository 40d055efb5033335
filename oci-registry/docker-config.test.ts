import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { credentialsForHost, DockerConfigError } from "./docker-config.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("credentialsForHost", () => {
  const secrets = [
    JSON.stringify({ auths: { "https://index.docker.io/v1/": { auth: b64("hub:pw:with:colons") } } }),
    JSON.stringify({
      auths: {
        "registry.example:5000": { username: "user", password: "secret" },
        "http://127.0.0.1:5001/v2/": { auth: b64("local:pw") },
        "other.example": { email: "no-credentials@example" },
      },
    }),
  ];

  it("matches by host, whatever the key's spelling", () => {
    assert.deepEqual(credentialsForHost(secrets, "docker.io"), {
      username: "hub",
      password: "pw:with:colons",
    });
    assert.deepEqual(credentialsForHost(secrets, "registry-1.docker.io"), {
      username: "hub",
      password: "pw:with:colons",
    });
    assert.deepEqual(credentialsForHost(secrets, "registry.example:5000"), {
      username: "user",
      password: "secret",
    });
    assert.deepEqual(credentialsForHost(secrets, "127.0.0.1:5001"), { username: "local", password: "pw" });
  });

  it("finds nothing for other hosts, other ports and entries without credentials", () => {
    assert.equal(credentialsForHost(secrets, "registry.example"), undefined);
    assert.equal(credentialsForHost(secrets, "other.example"), undefined);
    assert.equal(credentialsForHost([], "docker.io"), undefined);
  });

  it("the first secret with an entry wins", () => {
    const second = JSON.stringify({ auths: { "docker.io": { auth: b64("second:pw") } } });
    assert.equal(credentialsForHost([second, ...secrets], "docker.io")?.username, "second");
  });

  it("refuses texts that are not dockerconfigjson", () => {
    for (const [text, why] of [
      ["not json", /pull secret 1 is not JSON/],
      ["{}", /no "auths"/],
      [JSON.stringify({ auths: { "docker.io": "x" } }), /is not an object/],
      [JSON.stringify({ auths: { "docker.io": { auth: b64("nocolon") } } }), /user:password/],
    ] as const) {
      assert.throws(
        () => credentialsForHost([text], "docker.io"),
        (e: unknown) => e instanceof DockerConfigError && why.test(e.message),
      );
    }
  });
});
