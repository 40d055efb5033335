import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, it } from "node:test";
import { pino } from "pino";
import { forwardRegistryOutput } from "./registry-log.js";

// Lines as docker-registry 2.8 prints them (shortened).
const LINES = [
  'time="2026-12-02T12:43:29Z" level=error msg="response completed with error" err.code="blob unknown" http.response.status=404',
  'time="2026-12-02T12:43:30Z" level=error msg="response completed with error" err.code="unknown" http.response.status=500',
  'time="2026-12-02T12:43:31Z" level=warning msg="No HTTP secret provided"',
  'time="2026-12-02T12:43:32Z" level=fatal msg="listen tcp 127.0.0.1:5000: bind: address already in use"',
];

describe("forwardRegistryOutput", () => {
  it("logs each line at its level, 4xx answers at debug, and keeps the last lines", async () => {
    const records: { level: number; msg: string }[] = [];
    const log = pino(
      { level: "debug" },
      { write: (line: string) => records.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    // A real child, split across stdout and stderr as the registry's output may be.
    const child = spawn("sh", [
      "-c",
      `printf '%s\\n' "$1" "$2"; printf '%s\\n' "$3" "$4" >&2`,
      "sh",
      ...LINES,
    ]);
    const recent = forwardRegistryOutput(child, log);
    await once(child, "close");
    assert.equal(recent.length, 4);
    assert.deepEqual(
      records.map((r) => [r.level, r.msg]).sort(),
      [
        [20, "response completed with error"],
        [40, "response completed with error"],
        [40, "No HTTP secret provided"],
        [50, "listen tcp 127.0.0.1:5000: bind: address already in use"],
      ].sort(),
    );
  });
});
