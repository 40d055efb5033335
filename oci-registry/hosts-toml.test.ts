import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { HostsConfigError, hostsDirectoryEndpoints, hostsTomlEndpoints } from "./hosts-toml.js";
import { parseImageReference } from "./image-reference.js";

describe("hosts.toml", () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "hosts-toml-"));
    await mkdir(join(directory, "example.invalid:5000"));
    await writeFile(
      join(directory, "example.invalid:5000", "hosts.toml"),
      `server = "https://example.invalid:5000"
[host."http://127.0.0.1:5001"]
  capabilities = ["pull", "resolve"]
[host."https://pull-only.local/prefix"]
  capabilities = ["pull"]
  skip_verify = true
[host."push-only.local"]
  capabilities = ["push"]
`,
    );
    await mkdir(join(directory, "_default"));
    await writeFile(
      join(directory, "_default", "hosts.toml"),
      `[host."https://fallback.local"]\n  override_path = true\n`,
    );
  });
  after(() => rm(directory, { recursive: true, force: true }));

  it("lists mirrors in file order, then the server; pull-less hosts are left out", async () => {
    const endpoints = await hostsDirectoryEndpoints(
      directory,
      parseImageReference("example.invalid:5000/disks/fedora:41"),
    );
    assert.deepEqual(
      endpoints?.map((e) => [e.origin, e.apiRoot, e.canResolve, e.skipVerify, e.namespace, e.repository]),
      [
        ["http://127.0.0.1:5001", "/v2", true, false, "example.invalid:5000", "disks/fedora"],
        ["https://pull-only.local", "/prefix/v2", false, true, "example.invalid:5000", "disks/fedora"],
        ["https://example.invalid:5000", "/v2", true, false, undefined, "disks/fedora"],
      ],
    );
  });

  it("uses _default for other hosts, with docker.io's API host as the server", async () => {
    const endpoints = await hostsDirectoryEndpoints(directory, parseImageReference("alpine"));
    assert.deepEqual(
      endpoints?.map((e) => [e.origin, e.apiRoot, e.repository, e.credentialHost]),
      [
        ["https://fallback.local", "", "library/alpine", "fallback.local"],
        ["https://registry-1.docker.io", "/v2", "library/alpine", "docker.io"],
      ],
    );
  });

  it("says when it has no configuration", async () => {
    const empty = await mkdtemp(join(tmpdir(), "hosts-toml-empty-"));
    assert.equal(await hostsDirectoryEndpoints(empty, parseImageReference("quay.io/a")), undefined);
    await rm(empty, { recursive: true });
  });

  it("also finds host_port_ directories", async () => {
    const other = await mkdtemp(join(tmpdir(), "hosts-toml-port-"));
    await mkdir(join(other, "reg.local_5000_"));
    await writeFile(join(other, "reg.local_5000_", "hosts.toml"), 'server = "http://reg.local:5000"\n');
    const endpoints = await hostsDirectoryEndpoints(other, parseImageReference("reg.local:5000/a"));
    assert.deepEqual(
      endpoints?.map((e) => e.origin),
      ["http://reg.local:5000"],
    );
    await rm(other, { recursive: true });
  });

  const refused: [string, RegExp][] = [
    ['[host."https://m"]\n  ca = "/etc/ca.pem"', /host."https:\/\/m".ca is not supported/],
    ['[host."ftp://m"]', /neither http/],
    ["server = 5", /server must be a string/],
    ['[host."https://m"]\n  skip_verify = "yes"', /skip_verify must be true or false/],
    ["server = ", /line 1/],
  ];
  for (const [text, why] of refused) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => hostsTomlEndpoints(text, "hosts.toml", parseImageReference("reg.local/a")),
        (error: unknown) => error instanceof HostsConfigError && why.test(error.message),
      );
    });
  }
});
