import { isIP, isIPv4, isIPv6 } from "node:net";

/**
 * The string formats kube-apiserver checks in custom resources. apiextensions strips every other
 * format from a CRD schema before validating (StripUnsupportedFormatsPostProcess), so `int32`,
 * `int64`, `float`, `double` and unknown formats constrain nothing.
 */

type FormatCheck = (value: string) => boolean;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const RGB_PART = "\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*";
const RGB_COLOR = new RegExp(`^rgb\\(${RGB_PART},${RGB_PART},${RGB_PART}\\)$`);
const MAC_COLON = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}(?:(?::[0-9a-f]{2}){2}|(?::[0-9a-f]{2}){14})?$/i;
const MAC_DASH = /^[0-9a-f]{2}(?:-[0-9a-f]{2}){5}(?:(?:-[0-9a-f]{2}){2}|(?:-[0-9a-f]{2}){14})?$/i;
const MAC_DOT = /^[0-9a-f]{4}(?:\.[0-9a-f]{4}){2}(?:\.[0-9a-f]{4}|(?:\.[0-9a-f]{4}){7})?$/i;
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;
const SCALA_DURATION =
  /^\s*\d+\s*(ns|nano|nanos|nanosecond|nanoseconds|us|micro|micros|microsecond|microseconds|ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hour|hours|d|day|days|w|wk|week|weeks)\s*$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && validDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null || !validDate(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  return Number(match[4]) < 24 && Number(match[5]) < 60 && Number(match[6] ?? 0) < 60;
}

function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 255) return false;
  const labels = value.endsWith(".") ? value.slice(0, -1).split(".") : value.split(".");
  return labels.every((label) =>
    /^[\p{L}\p{S}a-zA-Z0-9]([\p{L}\p{S}a-zA-Z0-9-]{0,61}[\p{L}\p{S}a-zA-Z0-9])?$/u.test(label),
  );
}

function isCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split("/");
  if (address === undefined || bits === undefined || rest.length > 0 || !/^\d{1,3}$/.test(bits)) return false;
  const version = isIP(address);
  return version !== 0 && Number(bits) <= (version === 4 ? 32 : 128);
}

function isUri(value: string): boolean {
  // url.ParseRequestURI: an absolute URI or an absolute path, without spaces.
  return !/\s/.test(value) && (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value) || value.startsWith("/"));
}

function isEmail(value: string): boolean {
  const address = /<([^<>]+)>\s*$/.exec(value)?.[1] ?? value;
  return /^[^\s@<>]+@[^\s@<>]+$/.test(address.trim());
}

function isIsbn10(value: string): boolean {
  const digits = value.replace(/[\s-]/g, "");
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (10 - i) * (digits[i] === "X" ? 10 : Number(digits[i]));
  return sum % 11 === 0;
}

function isIsbn13(value: string): boolean {
  const digits = value.replace(/[\s-]/g, "");
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(digits[i]);
  return sum % 10 === 0;
}

function isCreditCard(value: string): boolean {
  const digits = value.replace(/\D/g, "");
  return /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/.test(
    digits,
  );
}

const FORMATS: Record<string, FormatCheck> = {
  bsonobjectid: (value) => /^[0-9a-f]{24}$/i.test(value),
  uri: isUri,
  email: isEmail,
  hostname: isHostname,
  ipv4: (value) => isIPv4(value) || (isIPv6(value) && value.includes(".")),
  ipv6: (value) => isIP(value) !== 0 && value.includes(":"),
  cidr: isCidr,
  mac: (value) => MAC_COLON.test(value) || MAC_DASH.test(value) || MAC_DOT.test(value),
  uuid: (value) => UUID.test(value),
  uuid3: (value) => UUID3.test(value),
  uuid4: (value) => UUID4.test(value),
  uuid5: (value) => UUID5.test(value),
  isbn: (value) => isIsbn10(value) || isIsbn13(value),
  isbn10: isIsbn10,
  isbn13: isIsbn13,
  creditcard: isCreditCard,
  ssn: (value) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(value),
  hexcolor: (value) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value),
  rgbcolor: (value) => RGB_COLOR.test(value),
  byte: (value) => BASE64.test(value),
  password: () => true,
  date: isDate,
  duration: (value) => GO_DURATION.test(value) || SCALA_DURATION.test(value),
  datetime: isDateTime,
};

/** strfmt's registry ignores dashes in format names: `date-time` is `datetime`. */
function normalized(format: string): string {
  return format.replaceAll("-", "");
}

/** True when kube-apiserver keeps this format of a CRD schema (and so checks it). */
export function isSupportedFormat(format: string): boolean {
  return format !== "" && Object.hasOwn(FORMATS, normalized(format));
}

/** True when `value` is valid for a supported `format`; unknown formats accept anything. */
export function matchesFormat(format: string, value: string): boolean {
  const name = normalized(format);
  const check = Object.hasOwn(FORMATS, name) ? FORMATS[name] : undefined;
  return check === undefined || check(value);
}
