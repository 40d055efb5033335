import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { RegistryMirrorsError, writeRegistryMirrors } from "./registry-mirrors.js";

describe("writeRegistryMirrors", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "registry-mirrors-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes <host>/hosts.toml per host, pointing server and a pull/resolve host at the endpoint", async () => {
    const hostsDir = join(dir, "hosts");
    const written = await writeRegistryMirrors(hostsDir, {
      mirrorHosts: ["localhost:5000", "registry:5000", "quay.io", "docker.io"],
      endpoint: "http://127.0.0.1:5123",
    });
    assert.deepEqual(written, [
      join(hostsDir, "localhost:5000", "hosts.toml"),
      join(hostsDir, "registry:5000", "hosts.toml"),
      join(hostsDir, "quay.io", "hosts.toml"),
      join(hostsDir, "docker.io", "hosts.toml"),
    ]);
    assert.deepEqual((await readdir(hostsDir)).sort(), [
      "docker.io",
      "localhost:5000",
      "quay.io",
      "registry:5000",
    ]);
    const toml = await readFile(join(hostsDir, "quay.io", "hosts.toml"), "utf8");
    const lines = toml.split("\n").filter((line) => line.trim() && !line.startsWith("#"));
    assert.deepEqual(lines, [
      'server = "http://127.0.0.1:5123"',
      '[host."http://127.0.0.1:5123"]',
      '  capabilities = ["pull", "resolve"]',
    ]);
  });

  it("refuses host names that would leave the hosts directory, and endpoints with a path", async () => {
    for (const host of ["../etc", "..", "a/b", "quay.io/kubevirt", ""]) {
      await assert.rejects(
        writeRegistryMirrors(join(dir, "bad"), { mirrorHosts: [host], endpoint: "http://127.0.0.1:5000" }),
        RegistryMirrorsError,
        host,
      );
    }
    await assert.rejects(
      writeRegistryMirrors(join(dir, "bad"), {
        mirrorHosts: ["quay.io"],
        endpoint: "http://127.0.0.1:5000/v2",
      }),
      RegistryMirrorsError,
    );
    await assert.rejects(readdir(join(dir, "bad")), { code: "ENOENT" });
  });
});
