import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatImageReference, manifestReference, parseImageReference } from "./image-reference.js";
import { OciImageError } from "./oci-image-error.js";

const DIGEST = `sha256:${"a".repeat(64)}`;

describe("parseImageReference", () => {
  const valid: [string, string, string][] = [
    ["alpine", "docker.io/library/alpine:latest", "latest"],
    ["alpine:3.20", "docker.io/library/alpine:3.20", "3.20"],
    [
      "kubevirt/fedora-cloud-container-disk-demo",
      "docker.io/kubevirt/fedora-cloud-container-disk-demo:latest",
      "latest",
    ],
    ["docker.io/alpine", "docker.io/library/alpine:latest", "latest"],
    ["index.docker.io/library/alpine", "docker.io/library/alpine:latest", "latest"],
    ["quay.io/containerdisks/fedora:41", "quay.io/containerdisks/fedora:41", "41"],
    ["localhost/disk", "localhost/disk:latest", "latest"],
    ["127.0.0.1:5000/a/b_c__d--e.f:v1.0-rc_2", "127.0.0.1:5000/a/b_c__d--e.f:v1.0-rc_2", "v1.0-rc_2"],
    [`registry.example:5000/disk@${DIGEST}`, `registry.example:5000/disk@${DIGEST}`, DIGEST],
    [`registry.example/disk:v1@${DIGEST}`, `registry.example/disk:v1@${DIGEST}`, DIGEST],
    ["[::1]:5000/disk:v1", "[::1]:5000/disk:v1", "v1"],
  ];
  for (const [text, formatted, asked] of valid) {
    it(`reads ${text}`, () => {
      const reference = parseImageReference(text);
      assert.equal(formatImageReference(reference), formatted);
      assert.equal(manifestReference(reference), asked);
    });
  }

  const invalid: [string, RegExp][] = [
    ["", /empty/],
    ["Alpine", /lowercase/],
    ["registry.example/UPPER", /lowercase/],
    ["registry.example/a//b", /lowercase/],
    ["registry.example/../etc", /lowercase/],
    ["registry.example/a:bad/tag", /lowercase/],
    ["registry.example/a:-tag", /tag/],
    [`registry.example/a:${"t".repeat(129)}`, /tag/],
    ["registry.example/a@sha256:abc", /digest/],
    [`registry.example/a@sha512:${"a".repeat(128)}`, /digest/],
    ["-bad.example/a", /host/],
    ["registry.example:port/a", /host/],
    ["registry.example/a?x=1", /lowercase/],
    [`registry.example/${"a".repeat(250)}`, /longer than 255/],
  ];
  for (const [text, why] of invalid) {
    it(`refuses ${JSON.stringify(text.slice(0, 40))}`, () => {
      assert.throws(
        () => parseImageReference(text),
        (error: unknown) =>
          error instanceof OciImageError && error.reason === "InvalidImage" && why.test(error.message),
      );
    });
  }

  it("keeps the host's own spelling of the repository (no library/ elsewhere)", () => {
    assert.deepEqual(parseImageReference("quay.io/alpine"), { registry: "quay.io", repository: "alpine" });
  });
});
