import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ImportError } from "./import-error.js";
import { parseImporterEnv } from "./importer-env.js";

describe("parseImporterEnv", () => {
  test("reads CDI's variables, with the metrics port's default", () => {
    const request = parseImporterEnv({
      IMPORTER_SOURCE: "registry",
      IMPORTER_ENDPOINT: "docker://registry.local:5000/disks/fedora@sha256:abc",
      IMPORTER_IMAGE_SIZE: "1Gi",
      IMPORTER_REGISTRY_HOSTS: "/etc/containerd/certs.d",
      OWNER_UID: "uid-1",
    });
    assert.equal(request.source, "registry");
    assert.equal(request.endpoint?.href, "docker://registry.local:5000/disks/fedora@sha256:abc");
    assert.equal(request.imageSize, 1024 ** 3);
    assert.equal(request.registryHosts, "/etc/containerd/certs.d");
    assert.equal(request.ownerUid, "uid-1");
    assert.equal(request.metricsPort, 8443);
  });

  test("sizes are quantities or bytes, rounded up to whole bytes", () => {
    const size = (text: string) =>
      parseImporterEnv({ IMPORTER_SOURCE: "blank", IMPORTER_IMAGE_SIZE: text }).imageSize;
    assert.equal(size("1048576"), 1048576);
    assert.equal(size("1.5Ki"), 1536);
    assert.equal(size("1G"), 1e9);
    assert.equal(size("0.5"), 1);
  });

  test("refuses what it cannot serve, naming the variable", () => {
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [{ IMPORTER_SOURCE: "upload", IMPORTER_IMAGE_SIZE: "1Gi" }, /IMPORTER_SOURCE "upload"/],
      [
        { IMPORTER_SOURCE: "registry", IMPORTER_ENDPOINT: "https://x/y", IMPORTER_IMAGE_SIZE: "1Gi" },
        /docker:\/\//,
      ],
      [{ IMPORTER_SOURCE: "http", IMPORTER_ENDPOINT: "::", IMPORTER_IMAGE_SIZE: "1Gi" }, /is not a URL/],
      [{ IMPORTER_SOURCE: "blank" }, /IMPORTER_IMAGE_SIZE is required/],
      [{ IMPORTER_SOURCE: "blank", IMPORTER_IMAGE_SIZE: "0" }, /not a positive size/],
      [
        { IMPORTER_SOURCE: "blank", IMPORTER_IMAGE_SIZE: "1Gi", IMPORTER_METRICS_PORT: "http" },
        /IMPORTER_METRICS_PORT/,
      ],
    ];
    for (const [env, why] of cases) {
      assert.throws(
        () => parseImporterEnv(env),
        (error: unknown) => error instanceof ImportError && why.test(error.message),
      );
    }
  });
});
