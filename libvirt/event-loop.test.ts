import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const index = fileURLToPath(new URL("./index.js", import.meta.url));

function runScript(body: string): { status: number | null; stdout: string; stderr: string; ms: number } {
  const started = performance.now();
  const script = `import * as libvirt from ${JSON.stringify(index)};\n${body}`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 20_000,
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    ms: performance.now() - started,
  };
}

test("the process exits by itself once its connections are closed, events and pool included", () => {
  const { status, stdout, stderr, ms } = runScript(`
    const conn = await libvirt.Connection.open("test:///default");
    conn.onLifecycle(() => {});
    const domain = await conn.defineDomain("<domain type='test'><name>exit-check</name><memory>1024</memory><os><type>hvm</type></os></domain>");
    await domain.undefine();
    await conn.close();
    console.log("closed", libvirt.EventLoop.default().running);`);
  assert.equal(status, 0, stderr);
  assert.match(stdout, /^closed/);
  assert.ok(ms < 5_000, `exit took ${ms} ms`);
});

test("an exception escaping a handler still never kills the process", () => {
  const { status, stdout, stderr } = runScript(`
    const conn = await libvirt.Connection.open("test:///default", {
      onCallbackError: () => { throw new Error("the error handler fails too"); },
    });
    conn.onLifecycle(() => { throw new Error("listener fails"); });
    const domain = await conn.defineDomain("<domain type='test'><name>survivor</name><memory>1024</memory><os><type>hvm</type></os></domain>");
    await domain.undefine();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await conn.close();
    console.log("survived");`);
  assert.equal(status, 0, stderr);
  assert.match(stdout, /survived/);
});

test("a listener error goes to the default handler as a process warning", () => {
  const { status, stderr } = runScript(`
    const conn = await libvirt.Connection.open("test:///default");
    conn.onLifecycle(() => { throw new Error("reported listener failure"); });
    const domain = await conn.defineDomain("<domain type='test'><name>warned</name><memory>1024</memory><os><type>hvm</type></os></domain>");
    await domain.undefine();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await conn.close();`);
  assert.equal(status, 0, stderr);
  assert.match(stderr, /LibvirtCallbackError: lifecycle listener threw: reported listener failure/);
});

test("an uncaught exception or process.exit ends the process at once while a connection is open", () => {
  const crash = runScript(`
    await libvirt.Connection.open("test:///default");
    setTimeout(() => { throw new Error("crash while connected"); }, 20);`);
  assert.equal(crash.status, 1);
  assert.match(crash.stderr, /crash while connected/);
  assert.ok(crash.ms < 5_000, `exit took ${crash.ms} ms`);
  const exit = runScript(`
    await libvirt.Connection.open("test:///default");
    setTimeout(() => process.exit(7), 20);`);
  assert.equal(exit.status, 7);
  assert.ok(exit.ms < 5_000, `exit took ${exit.ms} ms`);
});
