import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { launcherDns, parseLauncherResolvConf } from "./launcher-dns.js";

test("the launcher's resolv.conf gives IPv4 servers and valid search domains, nothing that could break a line", () => {
  const text = [
    "search ns.svc.cluster.local svc.cluster.local cluster.local. bad_domain evil\\nopt",
    "nameserver 10.96.0.10",
    "nameserver fd00::10",
    "nameserver 10.96.0.10",
    "nameserver 300.1.1.1",
    "options ndots:5",
  ].join("\n");
  assert.deepEqual(parseLauncherResolvConf(text), {
    servers: ["10.96.0.10"],
    searchDomains: ["ns.svc.cluster.local", "svc.cluster.local", "cluster.local"],
  });
});

test("it is read through a launcher process's root; a pod without one offers nothing", async () => {
  const proc = await mkdtemp(join(tmpdir(), "launcher-dns-"));
  try {
    await mkdir(join(proc, "42", "root", "etc"), { recursive: true });
    await writeFile(join(proc, "42", "root", "etc", "resolv.conf"), "nameserver 10.96.0.10\nsearch a.b\n");
    assert.deepEqual(await launcherDns({ pid: 42, path: "" }, proc), {
      servers: ["10.96.0.10"],
      searchDomains: ["a.b"],
    });
    assert.deepEqual(await launcherDns({ pid: 43, path: "" }, proc), { servers: [], searchDomains: [] });
  } finally {
    await rm(proc, { recursive: true, force: true });
  }
});
