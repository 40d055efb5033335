import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isSameProcessAlive, parseProcStat, readProcStat } from "./proc-stat.js";

describe("/proc/<pid>/stat", () => {
  test("parses a command name with spaces and parentheses", () => {
    const line = "4242 (my (odd) prog) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 50";
    assert.deepEqual(parseProcStat(line), { pid: 4242, state: "S", processGroup: 4242, startTicks: 987654 });
  });

  test("names this process by pid and start time", () => {
    const own = readProcStat(process.pid);
    assert.ok(own);
    assert.ok(isSameProcessAlive(process.pid, own.startTicks));
    assert.ok(!isSameProcessAlive(process.pid, own.startTicks + 1), "a reused pid is another process");
  });
});
