/**
 * A Kubernetes resource quantity (`2Gi`, `128Mi`, `500m`, `1e3`), parsed once, validated, and
 * carried typed. The value is kept exact as a rational number of BigInts, so `0.5Gi` and `512Mi`
 * compare equal and no rounding happens until a caller asks for an integer.
 *
 * This is the one quantity grammar of the project: the API's validation, the dev cluster's
 * scheduler and its protobuf decoder all read quantities here. The grammar is apimachinery's
 * parser (`resource.ParseQuantity`), which is stricter than the OpenAPI pattern it publishes:
 * the pattern lets an exponent have a fraction (`1e1.5`), the parser does not.
 */

/** The pattern KubeVirt's CRDs (and apimachinery's OpenAPI) put on every quantity field. */
export const QUANTITY_PATTERN =
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

const QUANTITY_REGEX = new RegExp(QUANTITY_PATTERN);
/** What ParseQuantity accepts after the number: a suffix, or an exponent that is a whole number. */
const SUFFIX_SYNTAX = /^(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;
/** Larger exponents would make exact BigInt arithmetic unbounded; no resource comes near them. */
const MAX_EXPONENT = 1000;

/**
 * Whether `text` is a quantity as ParseQuantity reads it, without computing its value (for
 * readers that keep the text, such as a protobuf decoder).
 */
export function isQuantity(text: string): boolean {
  return QUANTITY_REGEX.test(text) && SUFFIX_SYNTAX.test(splitSuffix(text).suffix);
}

/** How a quantity was written; a computed quantity is formatted in the same family. */
export type QuantityFormat = "BinarySI" | "DecimalSI" | "DecimalExponent";

const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

export class QuantityParseError extends Error {
  readonly reason = "InvalidQuantity";
  constructor(
    readonly input: string,
    detail: string,
  ) {
    super(`quantity ${JSON.stringify(input)} is invalid: ${detail}`);
    this.name = "QuantityParseError";
  }
}

export class Quantity {
  /** Exact value = numerator / denominator; denominator > 0. */
  readonly #numerator: bigint;
  readonly #denominator: bigint;

  private constructor(
    numerator: bigint,
    denominator: bigint,
    /** The text as written (or as formatted, for a computed quantity); what toJSON() emits. */
    readonly text: string,
    readonly format: QuantityFormat,
  ) {
    const divisor = gcd(abs(numerator), denominator);
    this.#numerator = divisor === 0n ? numerator : numerator / divisor;
    this.#denominator = divisor === 0n ? denominator : denominator / divisor;
  }

  /** Parses a manifest value: a quantity string or a JSON integer (int-or-string). */
  static parse(input: string | number): Quantity {
    if (typeof input === "number") return Quantity.#fromJsonNumber(input);
    const text = input.trim();
    if (text !== input || !QUANTITY_REGEX.test(text)) {
      throw new QuantityParseError(input, `quantities must match the regular expression ${QUANTITY_PATTERN}`);
    }
    const { numberPart, suffix } = splitSuffix(text);
    const { numerator, denominator } = decimalFraction(numberPart);
    const binary = BINARY_SUFFIXES[suffix];
    if (binary !== undefined)
      return new Quantity(numerator * 2n ** BigInt(binary), denominator, text, "BinarySI");
    const decimal = DECIMAL_SUFFIXES[suffix];
    if (decimal !== undefined) return Quantity.#scaled(numerator, denominator, decimal, text, "DecimalSI");
    return Quantity.#scaled(numerator, denominator, exponentOf(suffix, input), text, "DecimalExponent");
  }

  /** parse() that answers undefined instead of throwing. */
  static tryParse(input: unknown): Quantity | undefined {
    if (typeof input !== "string" && typeof input !== "number") return undefined;
    try {
      return Quantity.parse(input);
    } catch {
      return undefined;
    }
  }

  /** A whole number of units (bytes, cores), formatted canonically in the given family. */
  static fromInteger(value: bigint | number, format: QuantityFormat = "BinarySI"): Quantity {
    const integer = typeof value === "bigint" ? value : BigInt(Math.trunc(value));
    return new Quantity(integer, 1n, formatInteger(integer, format), format);
  }

  /** A number of thousandths (millicores), formatted as `500m` or `2` when whole. */
  static fromMilli(milli: bigint | number): Quantity {
    const value = typeof milli === "bigint" ? milli : BigInt(Math.trunc(milli));
    const text = value % 1000n === 0n ? formatInteger(value / 1000n, "DecimalSI") : `${value}m`;
    return new Quantity(value, 1000n, text, "DecimalSI");
  }

  static #fromJsonNumber(input: number): Quantity {
    if (!Number.isFinite(input)) throw new QuantityParseError(String(input), "not a finite number");
    return Quantity.parse(Number.isInteger(input) ? BigInt(input).toString() : String(input));
  }

  static #scaled(n: bigint, d: bigint, exponent: number, text: string, format: QuantityFormat): Quantity {
    return exponent >= 0
      ? new Quantity(n * 10n ** BigInt(exponent), d, text, format)
      : new Quantity(n, d * 10n ** BigInt(-exponent), text, format);
  }

  isZero(): boolean {
    return this.#numerator === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.#numerator === 0n ? 0 : this.#numerator < 0n ? -1 : 1;
  }

  /** The value rounded away from zero to a whole unit, as apimachinery's Value() does (bytes for memory). */
  valueBigInt(): bigint {
    return roundAwayFromZero(this.#numerator, this.#denominator);
  }

  /** valueBigInt() as a number; exact up to 2^53. */
  value(): number {
    return Number(this.valueBigInt());
  }

  /** The value in thousandths rounded away from zero, as MilliValue() does (millicores for CPU). */
  milliValue(): number {
    return Number(roundAwayFromZero(this.#numerator * 1000n, this.#denominator));
  }

  /** The exact value as a floating-point number (for display and ratios). */
  toNumber(): number {
    return Number(this.#numerator) / Number(this.#denominator);
  }

  compare(other: Quantity): -1 | 0 | 1 {
    const left = this.#numerator * other.#denominator;
    const right = other.#numerator * this.#denominator;
    return left === right ? 0 : left < right ? -1 : 1;
  }

  equals(other: Quantity): boolean {
    return this.compare(other) === 0;
  }

  /** This quantity times numerator/denominator, rounded up to a whole unit, in this quantity's family. */
  scaledBy(numerator: number, denominator: number): Quantity {
    const product = ceilDiv(this.#numerator * BigInt(numerator), this.#denominator * BigInt(denominator));
    return Quantity.fromInteger(product, this.format === "BinarySI" ? "BinarySI" : "DecimalSI");
  }

  toString(): string {
    return this.text;
  }

  /** Serialises as written, so a manifest round-trips unchanged. */
  toJSON(): string {
    return this.text;
  }
}

function splitSuffix(text: string): { numberPart: string; suffix: string } {
  const match = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(.*)$/.exec(text);
  return { numberPart: match?.[1] ?? text, suffix: match?.[2] ?? "" };
}

/** `-12.50` → -1250/100 */
function decimalFraction(numberPart: string): { numerator: bigint; denominator: bigint } {
  const negative = numberPart.startsWith("-");
  const unsigned = numberPart.replace(/^[+-]/, "");
  const [whole = "", fraction = ""] = unsigned.split(".");
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, "") || "0";
  const numerator = BigInt(digits) * (negative ? -1n : 1n);
  return { numerator, denominator: 10n ** BigInt(fraction.length) };
}

function exponentOf(suffix: string, input: string): number {
  if (!SUFFIX_SYNTAX.test(suffix)) throw new QuantityParseError(input, "the exponent must be an integer");
  const exponent = Number(suffix.slice(1));
  if (Math.abs(exponent) > MAX_EXPONENT) throw new QuantityParseError(input, "the exponent is out of range");
  return exponent;
}

/** Canonical text of an integer: the largest suffix that divides it exactly (`1073741824` → `1Gi`). */
function formatInteger(value: bigint, format: QuantityFormat): string {
  if (value === 0n) return "0";
  const table: [string, bigint][] =
    format === "BinarySI"
      ? Object.entries(BINARY_SUFFIXES).map(([suffix, bits]) => [suffix, 2n ** BigInt(bits)])
      : Object.entries(DECIMAL_SUFFIXES)
          .filter(([, exponent]) => exponent > 0)
          .map(([suffix, exponent]) => [suffix, 10n ** BigInt(exponent)]);
  const fitting = table.filter(([, unit]) => value % unit === 0n);
  const largest = fitting[fitting.length - 1];
  return largest === undefined ? value.toString() : `${value / largest[1]}${largest[0]}`;
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator > 0n ? quotient + 1n : quotient;
}

/** apimachinery rounds an inexact scaled value away from zero (`-1.5` → `-2`), not towards +∞. */
function roundAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  return numerator < 0n ? -ceilDiv(-numerator, denominator) : ceilDiv(numerator, denominator);
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}
