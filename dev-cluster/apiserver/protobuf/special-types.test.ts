import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "../json.js";
import type { SpecialType } from "./message-schema.js";
import { decodeSpecialType } from "./special-types.js";
import { bytesField, concat, varintField } from "./testing/wire-writer.js";
import { ProtobufDecodeError } from "./wire-reader.js";

const time = (seconds: number | bigint, nanos = 0) => concat(varintField(1, seconds), varintField(2, nanos));

describe("decodeSpecialType", () => {
  const cases: [string, SpecialType, Uint8Array, JsonValue][] = [
    ["zero Time (empty message) is null", "Time", new Uint8Array(), null],
    ["Time at second precision", "Time", time(1714979289, 999_999_999), "2024-05-06T07:08:09Z"],
    ["the epoch written out is not zero", "Time", time(0), "1970-01-01T00:00:00Z"],
    ["Time before 1970", "Time", time(-1), "1969-12-31T23:59:59Z"],
    ["negative nanos borrow a second", "Time", time(10, -1), "1970-01-01T00:00:09Z"],
    [
      "MicroTime keeps microseconds",
      "MicroTime",
      time(1714979289, 123_456_789),
      "2024-05-06T07:08:09.123456Z",
    ],
    ["zero MicroTime is null", "MicroTime", new Uint8Array(), null],
    ["IntOrString int", "IntOrString", concat(varintField(1, 0), varintField(2, 8080)), 8080],
    ["IntOrString string", "IntOrString", concat(varintField(1, 1), bytesField(3, "50%")), "50%"],
    ["IntOrString zero", "IntOrString", new Uint8Array(), 0],
    ["negative IntOrString int", "IntOrString", varintField(2, -3), -3],
    ["Quantity", "Quantity", bytesField(1, "1Gi"), "1Gi"],
    ["Quantity with exponent", "Quantity", bytesField(1, "1e3"), "1e3"],
    ["zero Quantity", "Quantity", new Uint8Array(), "0"],
    ["FieldsV1", "FieldsV1", bytesField(1, '{"f:data":{}}'), { "f:data": {} }],
    ["empty FieldsV1", "FieldsV1", new Uint8Array(), null],
  ];
  for (const [name, type, bytes, expected] of cases) {
    test(name, () => assert.deepEqual(decodeSpecialType(type, bytes), expected));
  }

  const rejected: [string, SpecialType, Uint8Array, RegExp][] = [
    ["a year past 9999", "Time", time(253_402_300_800), /outside the years/],
    ["a year before 0", "Time", time(-62_167_219_201), /outside the years/],
    ["seconds as a string", "Time", bytesField(1, "x"), /want varint/],
    ["IntOrString type 2", "IntOrString", varintField(1, 2), /type 2/],
    ["a Quantity that is not one", "Quantity", bytesField(1, "lots"), /not a valid quantity/],
    ["an empty Quantity string", "Quantity", bytesField(1, ""), /not a valid quantity/],
    ["FieldsV1 that is not JSON", "FieldsV1", bytesField(1, "{"), /does not hold JSON/],
  ];
  for (const [name, type, bytes, message] of rejected) {
    test(`rejects ${name}`, () => {
      assert.throws(
        () => decodeSpecialType(type, bytes),
        (error: unknown) => {
          return error instanceof ProtobufDecodeError && message.test(error.message);
        },
      );
    });
  }
});
