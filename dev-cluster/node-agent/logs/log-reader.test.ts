import assert from "node:assert/strict";
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { systemClock } from "../../../runtime/index.js";
import { logStampsPath } from "./log-paths.js";
import { readLogFile, tailOffset } from "./log-reader.js";
import { timeAtOffset } from "./log-stamps.js";

const dir = mkdtempSync(join(tmpdir(), "log-reader-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function read(path: string, options: Partial<Parameters<typeof readLogFile>[1]> = {}): Promise<string> {
  const chunks: Buffer[] = [];
  const stream = readLogFile(path, {
    follow: false,
    timestamps: false,
    isLive: () => false,
    clock: systemClock,
    ...options,
  });
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe("log files", () => {
  test("tail offsets count lines from the end, with or without a final newline", () => {
    const path = join(dir, "tail.log");
    for (const [text, lines, expected] of [
      ["a\nb\nc\n", 2, 2],
      ["a\nb\nc", 2, 2],
      ["a\nb\nc\n", 5, 0],
      ["a\nb\nc\n", 0, 6],
    ] as const) {
      writeFileSync(path, text);
      const fd = openSync(path, "r");
      assert.equal(tailOffset(fd, text.length, lines), expected, JSON.stringify({ text, lines }));
      closeSync(fd);
    }
  });

  test("timestamps come from the stamps the agent took as the file grew", async () => {
    const path = join(dir, "stamped.log");
    writeFileSync(path, "one\ntwo\nthree\n");
    writeFileSync(
      logStampsPath(path),
      `4 ${Date.parse("2024-05-01T10:00:00Z")}\n14 ${Date.parse("2024-05-01T10:00:05Z")}\n`,
    );
    assert.equal(
      timeAtOffset(
        [
          { size: 4, time: 1 },
          { size: 14, time: 2 },
        ],
        8,
      ),
      2,
    );
    assert.equal(
      await read(path, { timestamps: true }),
      "2024-05-01T10:00:00.000Z one\n2024-05-01T10:00:05.000Z two\n2024-05-01T10:00:05.000Z three\n",
    );
    assert.equal(await read(path, { tailLines: 1, limitBytes: 3 }), "thr");
  });

  test("follow waits for more while the container lives, then drains and ends", async () => {
    const path = join(dir, "follow.log");
    writeFileSync(path, "start\n");
    let live = true;
    setTimeout(() => appendFileSync(path, "more\n"), 150);
    setTimeout(() => {
      appendFileSync(path, "last\n");
      live = false;
    }, 300);
    assert.equal(await read(path, { follow: true, isLive: () => live, pollMs: 20 }), "start\nmore\nlast\n");
  });
});
