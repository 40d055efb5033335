/**
 * Kubernetes resource quantities (`500m`, `2Gi`, `1e3`, `0.5`) reduced to the integers the
 * scheduler compares: cpu in millicores (`MilliValue`), everything else in whole units (`Value`),
 * both rounded up as apimachinery does. The value is computed exactly with BigInts, so `0.1` is
 * 100 millicores, not 101.
 */

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

const BINARY_POWERS: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_EXPONENTS: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

export class QuantityError extends Error {
  override readonly name = "QuantityError";
  readonly reason = "InvalidQuantity";
  constructor(readonly input: unknown) {
    super(`${JSON.stringify(input)} is not a resource quantity`);
  }
}

interface ExactQuantity {
  negative: boolean;
  /** value = mantissa × 2^binaryPower × 10^decimalExponent */
  mantissa: bigint;
  binaryPower: number;
  decimalExponent: number;
}

function parseExact(input: string | number): ExactQuantity {
  const text = typeof input === "number" ? String(input) : input;
  const match = QUANTITY.exec(text);
  if (!match) throw new QuantityError(input);
  const [, sign = "", number = "", suffix = ""] = match;
  const [whole = "", fraction = ""] = number.split(".");
  const mantissa = BigInt(`${whole}${fraction}` || "0");
  let decimalExponent = -fraction.length;
  let binaryPower = 0;
  const binary = BINARY_POWERS[suffix];
  if (binary !== undefined) binaryPower = binary;
  else if (suffix.startsWith("e") || suffix.startsWith("E")) decimalExponent += Number(suffix.slice(1));
  else decimalExponent += DECIMAL_EXPONENTS[suffix] ?? 0;
  return { negative: sign === "-", mantissa, binaryPower, decimalExponent };
}

/** The quantity times 10^scale, rounded up (away from zero), as a number. */
function scaledCeil(input: string | number, scale: number): number {
  const { negative, mantissa, binaryPower, decimalExponent } = parseExact(input);
  const numerator = mantissa << BigInt(binaryPower);
  const exponent = decimalExponent + scale;
  let magnitude: bigint;
  if (exponent >= 0) magnitude = numerator * 10n ** BigInt(exponent);
  else {
    const divisor = 10n ** BigInt(-exponent);
    magnitude = (numerator + divisor - 1n) / divisor;
  }
  const value = Number(magnitude);
  return negative ? -value : value;
}

/** apimachinery's Quantity.MilliValue: what cpu is counted in. */
export function milliValue(input: string | number): number {
  return scaledCeil(input, 3);
}

/** apimachinery's Quantity.Value: bytes of memory, a count of pods or devices. */
export function wholeValue(input: string | number): number {
  return scaledCeil(input, 0);
}
