import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  cidataBeginMarker,
  cidataEndMarker,
  extractCidataFile,
  parseTestGuestStatus,
  TEST_GUEST_BANNER,
  TEST_GUEST_STATUS_PREFIX,
} from "./guest-console.js";

/** What the guest prints for a file: `echo BEGIN; cat FILE; echo; echo END`, with the tty's "\r\n". */
function printed(file: "user-data" | "meta-data", content: string): string {
  return `${cidataBeginMarker(file)}\n${content}\n${cidataEndMarker(file)}\n`.replace(/\n/g, "\r\n");
}

describe("extractCidataFile", () => {
  const cases = [
    { name: "ends with a newline", content: "#cloud-config\nhello: world\n" },
    { name: "has no final newline", content: "#cloud-config\nhello: world" },
    { name: "is empty", content: "" },
    { name: "ends with blank lines", content: "a\n\n\n" },
  ];
  for (const { name, content } of cases) {
    test(`returns the file byte for byte when it ${name}`, () => {
      const console = `boot noise\r\n${printed("meta-data", "instance-id: x\n")}${printed("user-data", content)}${TEST_GUEST_BANNER}\r\n`;
      assert.equal(extractCidataFile(console, "user-data"), content);
      assert.equal(extractCidataFile(console, "meta-data"), "instance-id: x\n");
    });
  }

  test("is undefined until the end marker has arrived", () => {
    const partial = `${cidataBeginMarker("user-data")}\r\nhalf of it`;
    assert.equal(extractCidataFile(partial, "user-data"), undefined);
    assert.equal(extractCidataFile("nothing yet", "user-data"), undefined);
  });
});

describe("parseTestGuestStatus", () => {
  test("reads the root and cidata devices", () => {
    const console = `x\r\n${TEST_GUEST_STATUS_PREFIX}root=/dev/vda cidata=/dev/sr0\r\n${TEST_GUEST_BANNER}\r\n`;
    assert.deepEqual(parseTestGuestStatus(console), { root: "/dev/vda", cidata: "/dev/sr0" });
  });

  test("reports no cidata volume as undefined", () => {
    const console = `${TEST_GUEST_STATUS_PREFIX}root=initramfs cidata=none\n`;
    assert.deepEqual(parseTestGuestStatus(console), { root: "initramfs", cidata: undefined });
  });

  test("is undefined for an unfinished line", () => {
    assert.equal(parseTestGuestStatus(`${TEST_GUEST_STATUS_PREFIX}root=/dev/v`), undefined);
  });
});
