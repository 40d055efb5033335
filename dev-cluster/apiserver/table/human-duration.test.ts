import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { humanAge, humanDuration } from "./human-duration.js";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe("humanDuration", () => {
  const cases: [number, string][] = [
    [-2 * S, "<invalid>"],
    [-1500, "0s"],
    [0, "0s"],
    [999, "0s"],
    [59 * S, "59s"],
    [119 * S, "119s"],
    [2 * M, "2m"],
    [5 * M + 30 * S, "5m30s"],
    [9 * M + 59 * S, "9m59s"],
    [10 * M + 30 * S, "10m"],
    [179 * M, "179m"],
    [3 * H, "3h"],
    [3 * H + 20 * M, "3h20m"],
    [7 * H + 59 * M, "7h59m"],
    [8 * H + 30 * M, "8h"],
    [47 * H, "47h"],
    [2 * D, "2d"],
    [2 * D + 3 * H, "2d3h"],
    [7 * D + 23 * H, "7d23h"],
    [8 * D + 5 * H, "8d"],
    [45 * D, "45d"],
    [2 * Y - D, "729d"],
    [2 * Y, "2y"],
    [3 * Y + 24 * D, "3y24d"],
    [8 * Y + 100 * D, "8y"],
    [12 * Y, "12y"],
  ];
  for (const [milliseconds, expected] of cases) {
    test(`${milliseconds}ms is ${expected}`, () => assert.equal(humanDuration(milliseconds), expected));
  }
});

describe("humanAge", () => {
  const now = new Date("2024-03-01T12:00:00Z");
  const cases: [string | null | undefined, string][] = [
    ["2024-03-01T11:55:00Z", "5m"],
    ["2024-03-01T13:55:00+02:00", "5m"],
    ["2024-03-01T11:59:59.5Z", "0s"],
    ["2024-02-27T09:00:00Z", "3d3h"],
    [undefined, "<unknown>"],
    [null, "<unknown>"],
    ["yesterday", "<invalid>"],
    ["2024-03-01", "<invalid>"],
  ];
  for (const [timestamp, expected] of cases) {
    test(`${String(timestamp)} is ${expected}`, () => assert.equal(humanAge(timestamp, now), expected));
  }
});
