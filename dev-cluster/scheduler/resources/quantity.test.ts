import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { milliValue, QuantityError, wholeValue } from "./quantity.js";

describe("resource quantities", () => {
  const cases: [string | number, number, number][] = [
    ["500m", 500, 1],
    ["2", 2000, 2],
    ["0.1", 100, 1],
    ["1.5", 1500, 2],
    ["1Ki", 1024_000, 1024],
    ["24576000Ki", 24576000 * 1024 * 1000, 24576000 * 1024],
    ["2Gi", 2 * 1024 ** 3 * 1000, 2 * 1024 ** 3],
    ["1e3", 1_000_000, 1000],
    ["1k", 1_000_000, 1000],
    ["1.5Gi", 1.5 * 1024 ** 3 * 1000, 1.5 * 1024 ** 3],
    ["100n", 1, 1],
    [110, 110_000, 110],
  ];
  for (const [input, milli, whole] of cases) {
    test(`${input} is ${milli} milli and ${whole} whole units`, () => {
      assert.equal(milliValue(input), milli);
      assert.equal(wholeValue(input), whole);
    });
  }

  test("rejects what is not a quantity", () => {
    for (const input of ["", "1.2.3", "12 Gi", "Gi", "1iB", "--1"]) {
      assert.throws(() => milliValue(input), QuantityError, input);
    }
  });
});
