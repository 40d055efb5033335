import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProgramRunner, ProgramStartError } from "./program-runner.js";

describe("ProgramRunner", () => {
  const runner = new ProgramRunner();

  test("runs a program and returns its output and exit code", async () => {
    const result = await runner.run("sh", ["-c", "echo out; echo err >&2; exit 3"]);
    assert.equal(result.code, 3);
    assert.equal(result.stdout.toString(), "out\n");
    assert.equal(result.stderr.toString(), "err\n");
    assert.equal(result.timedOut, false);
  });

  test("writes the input to its stdin, and passes arguments as they are (no shell)", async () => {
    assert.equal(
      (await runner.run("cat", [], { input: "line one\nline two\n" })).stdout.toString(),
      "line one\nline two\n",
    );
    assert.equal((await runner.run("echo", ["$HOME", "a;b"])).stdout.toString(), "$HOME a;b\n");
  });

  test("the environment given, or the component's", async () => {
    const given = await runner.run("sh", ["-c", "echo $KVTS_TEST_VALUE"], {
      env: { KVTS_TEST_VALUE: "given", PATH: process.env.PATH },
    });
    assert.equal(given.stdout.toString(), "given\n");
  });

  test("a program that is not installed is a ProgramStartError with ENOENT", async () => {
    await assert.rejects(
      runner.run("kubevirt-ts-no-such-program", []),
      (error: unknown) => error instanceof ProgramStartError && error.code === "ENOENT",
    );
  });

  test("a program past its timeout is killed", async () => {
    const result = await runner.run("sleep", ["5"], { timeoutMs: 100 });
    assert.equal(result.timedOut, true);
    assert.equal(result.signal, "SIGKILL");
  });

  test("many at once each get their own answer", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => runner.run("echo", [String(index)])),
    );
    assert.deepEqual(
      results.map((result) => result.stdout.toString().trim()),
      Array.from({ length: 20 }, (_, index) => String(index)),
    );
  });
});
