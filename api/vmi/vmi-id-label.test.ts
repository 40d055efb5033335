import assert from "node:assert/strict";
import { test } from "node:test";
import { vmiIdOf } from "./vmi-id-label.js";

test("a VMI's id: its name up to 63 characters, else 54 characters, '-' and 8 hex of the name's SHA-1", () => {
  assert.equal(vmiIdOf("vm-1"), "vm-1");
  assert.equal(vmiIdOf("n".repeat(63)), "n".repeat(63));
  // Expected hashes from `printf %s NAME | sha1sum`.
  assert.equal(vmiIdOf("x".repeat(70)), `${"x".repeat(54)}-bbaad84b`);
  assert.equal(vmiIdOf("a".repeat(64)), `${"a".repeat(54)}-0098ba82`);
  assert.equal(vmiIdOf("a".repeat(64)).length, 63);
});
