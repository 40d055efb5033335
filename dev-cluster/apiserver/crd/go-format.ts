import { isJsonObject, type JsonValue } from "../json.js";

/**
 * Go's fmt printing of decoded JSON values (string, int64/float64, bool, nil, []interface{},
 * map[string]interface{}), so messages read byte for byte like kube-apiserver's.
 */

const GO_ESCAPES: Record<string, string> = {
  "\u0007": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\u000b": "\\v",
  "\\": "\\\\",
  '"': '\\"',
};

/** strconv.Quote: Go-syntax double-quoted string (`%q`). */
export function goQuote(text: string): string {
  let quoted = '"';
  for (const char of text) {
    const escaped = GO_ESCAPES[char];
    if (escaped !== undefined) {
      quoted += escaped;
      continue;
    }
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) quoted += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code === 0x2028 || code === 0x2029 || (code >= 0x80 && code < 0xa0)) {
      quoted += `\\u${code.toString(16).padStart(4, "0")}`;
    } else quoted += char;
  }
  return `${quoted}"`;
}

/**
 * `%v` of a JSON number: kube decodes integral numbers as int64 (printed plainly) and the rest
 * as float64, which Go prints with %g (exponent form from 1e+06 up and below 1e-04).
 */
export function goNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 63) return value.toFixed(0);
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : value < 0 ? "-Inf" : "NaN";
  const [mantissa = "0", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return String(value);
}

/** `%#v` of a decoded JSON value: `map[string]interface {}{"a":1}`, `[]interface {}{"x"}`. */
export function goSyntax(value: JsonValue): string {
  if (value === null) return "interface {}(nil)";
  if (typeof value === "string") return goQuote(value);
  if (typeof value === "number") return goNumber(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(", ")}}`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${goQuote(key)}:${goSyntax(value[key] ?? null)}`);
  return `map[string]interface {}{${entries.join(", ")}}`;
}

/** How field.Error.ErrorBody prints a bad value: simple types with %v / %q, the rest with %#v. */
export function goBadValue(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "string") return goQuote(value);
  if (typeof value === "number") return goNumber(value);
  if (typeof value === "boolean") return String(value);
  return goSyntax(value);
}

/** The Go type name of a decoded JSON value, as unstructured accessor errors print it. */
export function goTypeName(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "<nil>";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "[]interface {}";
  return isJsonObject(value) ? "map[string]interface {}" : "unknown";
}

/** `%v` of a []string: `[a b c]`. */
export function goStringList(values: readonly string[]): string {
  return `[${values.join(" ")}]`;
}
