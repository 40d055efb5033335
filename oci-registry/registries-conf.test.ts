import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseImageReference } from "./image-reference.js";
import { parseRegistriesConf, RegistriesConfError, registriesConfDecision } from "./registries-conf.js";

const CONF = `
unqualified-search-registries = ["docker.io"]
[[registry]]
prefix = "docker.io"
location = "docker.io"
[[registry.mirror]]
location = "mirror.local:5000/hub"
insecure = true
[[registry.mirror]]
location = "digests.local"
pull-from-mirror = "digest-only"

[[registry]]
prefix = "docker.io/library/alpine"
location = "alpine-mirror.local/alpine"

[[registry]]
location = "insecure.local:5000"
insecure = true

[[registry]]
prefix = "*.blocked.example"
blocked = true
`;

const DIGEST = `sha256:${"b".repeat(64)}`;

function decide(image: string) {
  return registriesConfDecision(parseRegistriesConf(CONF, "registries.conf"), parseImageReference(image));
}

function origins(image: string) {
  const decision = decide(image);
  assert.equal(decision.kind, "endpoints");
  return decision.kind === "endpoints"
    ? decision.endpoints.map((e) => `${e.origin}/${e.repository}${e.skipVerify ? " (insecure)" : ""}`)
    : [];
}

describe("registries.conf", () => {
  it("tries mirrors in order, then the location; an insecure one over https unverified, then http", () => {
    assert.deepEqual(origins("docker.io/kubevirt/disk:v1"), [
      "https://mirror.local:5000/hub/kubevirt/disk (insecure)",
      "http://mirror.local:5000/hub/kubevirt/disk (insecure)",
      "https://registry-1.docker.io/kubevirt/disk",
    ]);
  });

  it("uses digest-only mirrors for digests only", () => {
    assert.deepEqual(origins(`docker.io/kubevirt/disk@${DIGEST}`).slice(2), [
      "https://digests.local/kubevirt/disk",
      "https://registry-1.docker.io/kubevirt/disk",
    ]);
  });

  it("takes the longest prefix and rewrites the name", () => {
    assert.deepEqual(origins("alpine:3"), ["https://alpine-mirror.local/alpine"]);
    assert.deepEqual(origins("docker.io/library/alpine2"), [
      "https://mirror.local:5000/hub/library/alpine2 (insecure)",
      "http://mirror.local:5000/hub/library/alpine2 (insecure)",
      "https://registry-1.docker.io/library/alpine2",
    ]);
  });

  it("allows plain http for an insecure registry", () => {
    assert.deepEqual(origins("insecure.local:5000/a/b"), [
      "https://insecure.local:5000/a/b (insecure)",
      "http://insecure.local:5000/a/b (insecure)",
    ]);
  });

  it("blocks wildcard prefixes and leaves unmatched hosts alone", () => {
    assert.deepEqual(decide("reg.blocked.example/a"), { kind: "blocked", prefix: "*.blocked.example" });
    assert.deepEqual(decide("quay.io/a"), { kind: "unmatched" });
    assert.deepEqual(decide("insecure.local:50001/a"), { kind: "unmatched" });
  });

  it("refuses version 1 and malformed tables", () => {
    for (const [text, why] of [
      ["[registries.search]\nregistries = []", /version 1/],
      ['[[registry]]\nlocation = "a"\n[[registry.mirror]]\ninsecure = true', /mirror has no location/],
      [
        '[[registry]]\nlocation = "a"\n[[registry.mirror]]\nlocation = "b"\npull-from-mirror = "never"',
        /pull-from-mirror/,
      ],
      ["[[registry]]\ninsecure = true", /neither prefix nor location/],
    ] as const) {
      assert.throws(
        () => parseRegistriesConf(text, "r.conf"),
        (e: unknown) => e instanceof RegistriesConfError && why.test(e.message),
      );
    }
  });
});
