import assert from "node:assert/strict";
import { test } from "node:test";
import { dns1123LabelErrors } from "../validation/dns-names.js";
import { guestHostname } from "./guest-hostname.js";

test("the guest hostname: spec.hostname, else the name's first label cut to a valid label", () => {
  assert.equal(guestHostname("vm-1"), "vm-1");
  assert.equal(guestHostname("vm-1.example.org"), "vm-1");
  assert.equal(guestHostname("vm-1.example.org", "chosen"), "chosen");
  assert.equal(guestHostname("x".repeat(80)), "x".repeat(63));
  const cutAtHyphen = guestHostname(`${"x".repeat(62)}-y`);
  assert.equal(cutAtHyphen, "x".repeat(62));
  for (const name of [`${"a".repeat(62)}--b`, "a-".repeat(100), `${"z".repeat(253)}`]) {
    assert.deepEqual(dns1123LabelErrors(guestHostname(name)), [], name);
  }
});
