import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Quantity, QuantityParseError } from "./quantity.js";

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

  test("rounds up to whole units, as apimachinery's Value() does", () => {
    assert.equal(Quantity.parse("100m").value(), 1);
    assert.equal(Quantity.parse("1.2").value(), 2);
    assert.equal(Quantity.parse("-1.5").value(), -1);
    assert.equal(Quantity.parse("1n").milliValue(), 1);
  });

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
    for (const text of ["", "2 Gi", "1GB", "Gi", "1.2.3", " 1", "1e", "0x10"]) {
      assert.throws(
        () => Quantity.parse(text),
        (error: unknown) => error instanceof QuantityParseError && error.reason === "InvalidQuantity",
        text,
      );
    }
    assert.throws(() => Quantity.parse(Number.NaN), QuantityParseError);
    assert.equal(Quantity.tryParse("nope"), undefined);
    assert.equal(Quantity.tryParse({}), undefined);
  });
});
