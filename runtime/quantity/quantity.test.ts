import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isQuantity, Quantity, QuantityParseError } from "./quantity.js";

describe("Quantity", () => {
  test("parses binary, decimal and exponent forms to exact values", () => {
    assert.equal(Quantity.parse("2Gi").value(), 2 * 1024 ** 3);
    assert.equal(Quantity.parse("128Mi").value(), 128 * 1024 ** 2);
    assert.equal(Quantity.parse("1k").value(), 1000);
    assert.equal(Quantity.parse("1e3").value(), 1000);
    assert.equal(Quantity.parse("1E").value(), 1e18);
    assert.equal(Quantity.parse("500m").milliValue(), 500);
    assert.equal(Quantity.parse(3).value(), 3);
    assert.equal(Quantity.parse("+1.5").milliValue(), 1500);
    assert.equal(Quantity.parse(".5").milliValue(), 500);
  });

  test("remembers the family it was written in", () => {
    assert.equal(Quantity.parse("2Gi").format, "BinarySI");
    assert.equal(Quantity.parse("500m").format, "DecimalSI");
    assert.equal(Quantity.parse("1e3").format, "DecimalExponent");
  });

  test("compares by value, not by text", () => {
    assert.ok(Quantity.parse("0.5Gi").equals(Quantity.parse("512Mi")));
    assert.ok(Quantity.parse("1").equals(Quantity.parse("1000m")));
    assert.equal(Quantity.parse("1M").compare(Quantity.parse("1Mi")), -1);
    assert.equal(Quantity.parse("2").compare(Quantity.parse("1500m")), 1);
  });

  test("rounds away from zero to whole units, as apimachinery's Value() does", () => {
    assert.equal(Quantity.parse("100m").value(), 1);
    assert.equal(Quantity.parse("1.2").value(), 2);
    assert.equal(Quantity.parse("-1.5").value(), -2);
    assert.equal(Quantity.parse("-1n").milliValue(), -1);
    assert.equal(Quantity.parse("1n").milliValue(), 1);
  });

  // What the dev cluster's scheduler counts: cpu in millicores, everything else in whole units.
  const schedulerCases: [string | number, number, number][] = [
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
  for (const [input, milli, whole] of schedulerCases) {
    test(`${input} is ${milli} milli and ${whole} whole units`, () => {
      assert.equal(Quantity.parse(input).milliValue(), milli);
      assert.equal(Quantity.parse(input).value(), whole);
    });
  }

  test("knows its sign", () => {
    assert.equal(Quantity.parse("-1Mi").sign(), -1);
    assert.equal(Quantity.parse("0").sign(), 0);
    assert.ok(Quantity.parse("0Gi").isZero());
  });

  test("serialises as written, so manifests round-trip", () => {
    assert.equal(JSON.stringify({ memory: Quantity.parse("128Mi") }), '{"memory":"128Mi"}');
    assert.equal(String(Quantity.parse("1.50")), "1.50");
  });

  test("formats computed values canonically", () => {
    assert.equal(Quantity.fromInteger(1024 ** 3).text, "1Gi");
    assert.equal(Quantity.fromInteger(1536 * 1024 ** 2).text, "1536Mi");
    assert.equal(Quantity.fromInteger(1000, "DecimalSI").text, "1k");
    assert.equal(Quantity.fromInteger(1001, "DecimalSI").text, "1001");
    assert.equal(Quantity.fromMilli(2000).text, "2");
    assert.equal(Quantity.fromMilli(250).text, "250m");
    assert.equal(Quantity.parse("3Gi").scaledBy(100, 150).text, "2Gi");
  });

  test("rejects what is not a quantity, with a reason", () => {
    for (const text of ["", "2 Gi", "1GB", "Gi", "1.2.3", " 1", "1e", "0x10", "12 Gi", "1iB", "--1"]) {
      assert.throws(
        () => Quantity.parse(text),
        (error: unknown) => error instanceof QuantityParseError && error.reason === "InvalidQuantity",
        text,
      );
    }
    assert.throws(() => Quantity.parse(Number.NaN), QuantityParseError);
    assert.throws(() => Quantity.parse("1e2000"), /the exponent is out of range/);
    assert.equal(Quantity.tryParse("nope"), undefined);
    assert.equal(Quantity.tryParse({}), undefined);
  });

  test("takes an exponent only as a whole number, as ParseQuantity does (its OpenAPI pattern allows more)", () => {
    for (const text of ["1e1.5", "1e1.0", "1e3.", "1e.5", "2E-1.5"]) {
      assert.throws(() => Quantity.parse(text), /the exponent must be an integer/, text);
      assert.equal(isQuantity(text), false, text);
    }
    assert.equal(Quantity.parse("1e+3").value(), 1000);
    assert.equal(Quantity.parse("1.e3").value(), 1000);
  });

  test("isQuantity checks the grammar alone, whatever the size of the exponent", () => {
    for (const text of ["1Gi", "1e3", "0", "+.5", "-1.5m", "1e2000"])
      assert.equal(isQuantity(text), true, text);
    for (const text of ["", "lots", "1 Gi", "1.2.3", "1e", "Gi"]) assert.equal(isQuantity(text), false, text);
  });
});
