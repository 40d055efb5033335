import {
  type LabelOperator,
  type LabelRequirement,
  LabelSelectorError,
  newRequirement,
} from "./label-requirement.js";

/**
 * The label selector string grammar of k8s.io/apimachinery/pkg/labels:
 *   selector    := requirement ( "," requirement )*
 *   requirement := [ "!" ] key [ ( "=" | "==" | "!=" | ">" | "<" ) value | ( "in" | "notin" ) "(" values ")" ]
 * Whitespace between tokens is ignored.
 */

type TokenKind =
  | "identifier"
  | "in"
  | "notin"
  | "!"
  | "!="
  | "="
  | "=="
  | ">"
  | "<"
  | "("
  | ")"
  | ","
  | "end";

interface Token {
  kind: TokenKind;
  text: string;
}

const SYMBOLS: readonly TokenKind[] = ["!=", "==", "!", "=", ">", "<", "(", ")", ","];
const SYMBOL_CHARS = new Set(["!", "=", ">", "<", "(", ")", ","]);
const WHITESPACE = new Set([" ", "\t", "\r", "\n"]);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < text.length) {
    const char = text.charAt(position);
    if (WHITESPACE.has(char)) {
      position++;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, position));
    if (symbol !== undefined) {
      tokens.push({ kind: symbol, text: symbol });
      position += symbol.length;
      continue;
    }
    let end = position;
    while (end < text.length && !WHITESPACE.has(text.charAt(end)) && !SYMBOL_CHARS.has(text.charAt(end)))
      end++;
    const word = text.slice(position, end);
    tokens.push({ kind: word === "in" || word === "notin" ? word : "identifier", text: word });
    position = end;
  }
  tokens.push({ kind: "end", text: "" });
  return tokens;
}

const OPERATORS: Partial<Record<TokenKind, LabelOperator>> = {
  "=": "Equals",
  "==": "Equals",
  "!=": "NotEquals",
  in: "In",
  notin: "NotIn",
  ">": "GreaterThan",
  "<": "LessThan",
};

/** Parses the string form into requirements; throws LabelSelectorError with upstream's wording. */
export function parseLabelRequirements(text: string): LabelRequirement[] {
  return new Parser(tokenize(text)).parse();
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    if (this.peek().kind === "end") return requirements;
    for (;;) {
      const next = this.peek();
      if (next.kind !== "identifier" && next.kind !== "!")
        throw unexpected(next, "!, identifier, or 'end of string'");
      requirements.push(this.parseRequirement());
      const separator = this.consume();
      if (separator.kind === "end") return requirements;
      if (separator.kind !== ",") throw unexpected(separator, "',' or 'end of string'");
      const following = this.peek();
      if (following.kind !== "identifier" && following.kind !== "!")
        throw unexpected(following, "identifier after ','");
    }
  }

  private parseRequirement(): LabelRequirement {
    const negated = this.peek().kind === "!";
    if (negated) this.consume();
    const key = this.consume();
    if (key.kind !== "identifier") throw unexpected(key, "identifier");
    const after = this.peek().kind;
    if (negated) return newRequirement(key.text, "DoesNotExist", []);
    if (after === "end" || after === ",") return newRequirement(key.text, "Exists", []);
    const operatorToken = this.consume();
    const operator = OPERATORS[operatorToken.kind];
    if (operator === undefined) throw unexpected(operatorToken, "[!= == = > < in notin]");
    const values =
      operator === "In" || operator === "NotIn" ? this.parseValueSet() : [this.parseExactValue()];
    return newRequirement(key.text, operator, values);
  }

  /** A value after `=`, `!=`, `>`, `<`; nothing before `,` or the end means the empty value. */
  private parseExactValue(): string {
    const next = this.peek();
    if (next.kind === "end" || next.kind === ",") return "";
    const value = this.consumeValue();
    if (value.kind !== "identifier") throw unexpected(value, "identifier");
    return value.text;
  }

  /** `( v1, v2, ... )`; empty entries (`()`, `(a,)`, `(,a)`) stand for the empty value, as upstream. */
  private parseValueSet(): string[] {
    const open = this.consume();
    if (open.kind !== "(") throw unexpected(open, "'('");
    const values: string[] = [];
    let expectValue = true;
    for (;;) {
      const token = this.consumeValue();
      if (token.kind === ")") {
        if (expectValue) values.push("");
        return values;
      }
      if (token.kind === ",") {
        if (expectValue) values.push("");
        expectValue = true;
        continue;
      }
      if (token.kind !== "identifier" || !expectValue)
        throw unexpected(token, expectValue ? "',', ')' or identifier" : "',' or ')'");
      values.push(token.text);
      expectValue = false;
    }
  }

  private peek(): Token {
    return this.tokens[this.position] ?? { kind: "end", text: "" };
  }

  private consume(): Token {
    const token = this.peek();
    if (token.kind !== "end") this.position++;
    return token;
  }

  /** Where a value is expected, `in` and `notin` are ordinary words. */
  private consumeValue(): Token {
    const token = this.consume();
    return token.kind === "in" || token.kind === "notin" ? { kind: "identifier", text: token.text } : token;
  }
}

function unexpected(token: Token, expected: string): LabelSelectorError {
  const found = token.kind === "end" ? "" : token.text;
  return new LabelSelectorError(`found '${found}', expected: ${expected}`);
}
