import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "../json.js";
import { goBadValue, goNumber, goQuote, goSyntax } from "./go-format.js";

describe("Go value printing", () => {
  const quotes: [string, string][] = [
    ["plain", '"plain"'],
    ['say "hi"\n', '"say \\"hi\\"\\n"'],
    ["tab\there\u0001", '"tab\\there\\x01"'],
    ["héllo", '"héllo"'],
  ];
  for (const [text, expected] of quotes)
    test(`%q of ${JSON.stringify(text)}`, () => assert.equal(goQuote(text), expected));

  const numbers: [number, string][] = [
    [3, "3"],
    [-12, "-12"],
    [1.5, "1.5"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [123456.5, "123456.5"],
    [1234567.5, "1.2345675e+06"],
  ];
  for (const [value, expected] of numbers)
    test(`%v of ${value}`, () => assert.equal(goNumber(value), expected));

  const syntaxes: [JsonValue, string][] = [
    [{ name: "a", port: 80 }, 'map[string]interface {}{"name":"a", "port":80}'],
    [["a", 1, null, true], '[]interface {}{"a", 1, interface {}(nil), true}'],
    [{}, "map[string]interface {}{}"],
  ];
  for (const [value, expected] of syntaxes)
    test(`%#v of ${JSON.stringify(value)}`, () => assert.equal(goSyntax(value), expected));

  test("bad values print like field.Error", () => {
    assert.equal(goBadValue(undefined), "null");
    assert.equal(goBadValue("x"), '"x"');
    assert.equal(goBadValue(false), "false");
    assert.equal(goBadValue({ a: "b" }), 'map[string]interface {}{"a":"b"}');
  });
});
