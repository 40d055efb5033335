import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtobufDecodeError, readPackedVarints, readVarint, readWireFields } from "./wire-reader.js";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("readVarint", () => {
  const cases: [string, Uint8Array, bigint, number][] = [
    ["one byte", bytes(0x05), 5n, 1],
    ["two bytes", bytes(0xac, 0x02), 300n, 2],
    [
      "-1 as ten bytes",
      bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
      2n ** 64n - 1n,
      10,
    ],
    ["bits past the 64th dropped", bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7e), 0n, 10],
  ];
  for (const [name, input, value, next] of cases) {
    test(name, () => assert.deepEqual(readVarint(input, 0), { value, next }));
  }

  test("rejects a truncated varint and one longer than ten bytes", () => {
    assert.throws(() => readVarint(bytes(0x80, 0x80), 0), ProtobufDecodeError);
    assert.throws(() => readVarint(new Uint8Array(11).fill(0x80), 0), /longer than 10 bytes/);
  });
});

describe("readWireFields", () => {
  test("reads every wire type in order", () => {
    const input = bytes(
      ...[0x08, 0x96, 0x01], // 1: varint 150
      ...[0x12, 0x02, 0x68, 0x69], // 2: "hi"
      ...[0x19, 1, 0, 0, 0, 0, 0, 0, 0], // 3: fixed64 1
      ...[0x25, 2, 0, 0, 0], // 4: fixed32 2
    );
    const fields = [...readWireFields(input)];
    assert.deepEqual(fields, [
      { number: 1, wireType: 0, varint: 150n },
      { number: 2, wireType: 2, bytes: bytes(0x68, 0x69) },
      { number: 3, wireType: 1, fixed64: 1n },
      { number: 4, wireType: 5, fixed32: 2 },
    ]);
  });

  const malformed: [string, Uint8Array, RegExp][] = [
    ["a length past the end", bytes(0x0a, 0x05, 0x61), /claims 5 bytes .* only 1 remain/],
    ["a huge length", bytes(0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), /claims/],
    ["a truncated fixed64", bytes(0x09, 1, 2, 3), /truncated fixed64/],
    ["a truncated fixed32", bytes(0x0d, 1), /truncated fixed32/],
    ["field number 0", bytes(0x00, 0x01), /invalid field number 0/],
    ["a group", bytes(0x0b), /unsupported wire type 3/],
    ["wire type 7", bytes(0x0f), /unsupported wire type 7/],
    ["a key cut short", bytes(0x80), /truncated varint/],
  ];
  for (const [name, input, message] of malformed) {
    test(`rejects ${name}`, () => assert.throws(() => [...readWireFields(input)], message));
  }

  test("an empty message has no fields", () => assert.deepEqual([...readWireFields(new Uint8Array())], []));
});

test("readPackedVarints reads a run of varints and rejects a cut one", () => {
  assert.deepEqual(readPackedVarints(bytes(0x01, 0xac, 0x02, 0x00)), [1n, 300n, 0n]);
  assert.throws(() => readPackedVarints(bytes(0x01, 0xac)), ProtobufDecodeError);
});
