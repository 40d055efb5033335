import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { parse } from "yaml";
import { RegistryStartError, startRegistry } from "./start-registry.js";

const log = pino({ level: "silent" });

async function status(url: string, init?: RequestInit): Promise<number> {
  try {
    const response = await fetch(url, init);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("startRegistry", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "start-registry-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("picks a free port for port 0, answers /v2/, keeps its store in the data dir, and stops", async () => {
    const dataDir = join(dir, "one");
    const registry = await startRegistry({ dataDir, address: "127.0.0.1:0", log });
    const port = Number(registry.address.split(":")[1]);
    assert.ok(port > 0 && registry.address === `127.0.0.1:${port}`);
    assert.equal(registry.url, `http://${registry.address}`);
    assert.equal(await status(`${registry.url}/v2/`), 200);
    assert.equal((await readFile(join(dataDir, "address"), "utf8")).trim(), registry.address);

    const config = parse(await readFile(join(dataDir, "config.yml"), "utf8")) as {
      storage: {
        filesystem: { rootdirectory: string };
        delete: { enabled: boolean };
        redirect: { disable: boolean };
      };
      http: { addr: string };
      log: { level: string };
    };
    assert.equal(config.storage.filesystem.rootdirectory, join(dataDir, "storage"));
    assert.equal(config.storage.delete.enabled, true);
    assert.equal(config.storage.redirect.disable, true);
    assert.equal(config.http.addr, registry.address);
    assert.equal(config.log.level, "warn");

    // Something written must land in the store under the data dir.
    const upload = await fetch(`${registry.url}/v2/probe/blobs/uploads/`, { method: "POST" });
    assert.equal(upload.status, 202);
    assert.ok(existsSync(join(dataDir, "storage", "docker", "registry", "v2", "repositories", "probe")));

    await registry.stop();
    assert.equal(alive(registry.pid), false);
    assert.equal(await status(`${registry.url}/v2/`), 0, "nothing listens after stop");
    await registry.stop(); // a second stop is harmless
  });

  it("gives two registries on port 0 two ports", async () => {
    const [a, b] = await Promise.all([
      startRegistry({ dataDir: join(dir, "a"), address: "127.0.0.1:0", log }),
      startRegistry({ dataDir: join(dir, "b"), address: "127.0.0.1:0", log }),
    ]);
    try {
      assert.notEqual(a.address, b.address);
      assert.equal(await status(`${a.url}/v2/`), 200);
      assert.equal(await status(`${b.url}/v2/`), 200);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("asks for Basic credentials when given an htpasswd user", async () => {
    const registry = await startRegistry({
      dataDir: join(dir, "auth"),
      address: "127.0.0.1:0",
      htpasswd: { user: "alice", password: "wonder land" },
      log,
    });
    try {
      const basic = (secret: string) => ({
        headers: { authorization: `Basic ${Buffer.from(secret).toString("base64")}` },
      });
      assert.equal(await status(`${registry.url}/v2/`), 401);
      assert.equal(await status(`${registry.url}/v2/`, basic("alice:wrong")), 401);
      assert.equal(await status(`${registry.url}/v2/`, basic("alice:wonder land")), 200);
      const htpasswd = await readFile(join(dir, "auth", "htpasswd"), "utf8");
      assert.match(htpasswd, /^alice:\$2y\$10\$/, "a bcrypt line");
    } finally {
      await registry.stop();
    }
  });

  it("fails with the registry's reason when a fixed port is taken", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const address = taken.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      await assert.rejects(
        startRegistry({ dataDir: join(dir, "busy"), address: `127.0.0.1:${port}`, log }),
        (error: unknown) =>
          error instanceof RegistryStartError &&
          error.reason === "Exited" &&
          /address already in use/.test(error.message),
      );
    } finally {
      taken.close();
    }
  });

  it("refuses an address without a port", async () => {
    await assert.rejects(
      startRegistry({ dataDir: join(dir, "bad"), address: "127.0.0.1", log }),
      (error: unknown) => error instanceof RegistryStartError && error.reason === "BadAddress",
    );
  });

  it("ends with its parent, even when the parent is killed with SIGKILL", async () => {
    const moduleUrl = new URL("./start-registry.js", import.meta.url).href;
    const script = [
      `import { pino } from "pino";`,
      `import { startRegistry } from ${JSON.stringify(moduleUrl)};`,
      `const r = await startRegistry({ dataDir: ${JSON.stringify(join(dir, "orphan"))}, address: "127.0.0.1:0", log: pino({ level: "silent" }) });`,
      `process.stdout.write(JSON.stringify({ pid: r.pid, url: r.url }) + "\\n");`,
      "setInterval(() => {}, 1000);",
    ].join("\n");
    const parent = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL(".", import.meta.url)),
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      parent.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
      });
      parent.once("exit", (code) =>
        reject(new Error(`parent exited with ${code} before the registry was up`)),
      );
    });
    const started = JSON.parse(line) as { pid: number; url: string };
    assert.equal(await status(`${started.url}/v2/`), 200);
    parent.kill("SIGKILL");
    await until("the registry to end with its parent", () => !alive(started.pid));
    assert.equal(await status(`${started.url}/v2/`), 0);
  });
});
