import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pino } from "pino";
import { ConflictError, NotFoundError } from "../client/api-errors.js";
import { unlessStale } from "./unless-stale.js";

const log = pino({ level: "silent" });
const answer = (code: number, reason: string) => ({
  code,
  reason,
  method: "PUT",
  path: "/x",
  message: reason,
});

describe("unlessStale", () => {
  test("says whether the write happened; a Conflict drops it", async () => {
    assert.equal(await unlessStale(async () => undefined, log, "update"), true);
    const conflict = async () => {
      throw new ConflictError(answer(409, "Conflict"));
    };
    assert.equal(await unlessStale(conflict, log, "update"), false);
  });

  test("any other error is the caller's to retry", async () => {
    const gone = new NotFoundError(answer(404, "NotFound"));
    await assert.rejects(
      unlessStale(async () => Promise.reject(gone), log, "update"),
      (error) => error === gone,
    );
  });
});
