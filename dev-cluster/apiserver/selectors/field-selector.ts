import { ApiError, badRequest } from "../api-error.js";

/** One term of a field selector; `==` is read as `=`. */
export interface FieldRequirement {
  field: string;
  operator: "=" | "!=";
  value: string;
}

/** Operators in the order upstream tries them at each position, so `!=` and `==` win over `=`. */
const OPERATORS = ["!=", "==", "="] as const;

/**
 * Parses the `fieldSelector` query parameter (k8s.io/apimachinery/pkg/fields): comma-separated
 * `field=value`, `field==value`, `field!=value` terms. Values escape `\,`, `\=` and `\\`. An empty
 * selector has no requirements (selects everything). Syntax errors → ApiError 400.
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(text)) {
    if (term === "") continue;
    const split = splitTerm(term);
    if (split === undefined) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    requirements.push({
      field: split.field,
      operator: split.operator === "!=" ? "!=" : "=",
      value: unescapeValue(split.value),
    });
  }
  return requirements;
}

/** Splits on commas that are not escaped by a backslash. */
function splitTerms(text: string): string[] {
  if (text === "") return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (escaped) escaped = false;
    else if (char === "\\") escaped = true;
    else if (char === ",") {
      terms.push(text.slice(start, index));
      start = index + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The field is everything before the first operator; the field itself is never unescaped. */
function splitTerm(
  term: string,
): { field: string; operator: (typeof OPERATORS)[number]; value: string } | undefined {
  for (let index = 0; index < term.length; index++) {
    const operator = OPERATORS.find((candidate) => term.startsWith(candidate, index));
    if (operator !== undefined) {
      return { field: term.slice(0, index), operator, value: term.slice(index + operator.length) };
    }
  }
  return undefined;
}

function unescapeValue(raw: string): string {
  let value = "";
  let escaped = false;
  for (const char of raw) {
    if (escaped) {
      if (char !== "\\" && char !== "," && char !== "=") {
        throw badRequest(`invalid field selector: invalid escape sequence: \\${char}`);
      }
      value += char;
      escaped = false;
    } else if (char === "\\") {
      escaped = true;
    } else if (char === "," || char === "=") {
      throw badRequest(`invalid field selector: unescaped character in value: ${char}`);
    } else {
      value += char;
    }
  }
  if (escaped) throw badRequest("invalid field selector: invalid escape sequence: \\");
  return value;
}

/** Whether an object's selectable fields satisfy every requirement; a missing field reads as "". */
export function matchesFieldSelector(
  requirements: readonly FieldRequirement[],
  fields: Record<string, string>,
): boolean {
  return requirements.every((requirement) => {
    const actual = Object.hasOwn(fields, requirement.field) ? fields[requirement.field] : "";
    return requirement.operator === "=" ? actual === requirement.value : actual !== requirement.value;
  });
}

/**
 * Refuses selectors on fields the resource does not offer, with kube-apiserver's 400
 * `field label not supported: <field>`.
 */
export function validateFieldSelector(
  requirements: readonly FieldRequirement[],
  allowed: Set<string>,
  resource: string,
): void {
  for (const { field } of requirements) {
    if (!allowed.has(field)) {
      throw new ApiError(400, "BadRequest", `field label not supported: ${field}`, { kind: resource });
    }
  }
}
