// A reader for the part of TOML that node registry configuration uses (containerd's hosts.toml, containers'
// registries.conf v2): comments, `key = value` with bare, quoted and dotted keys, `[table."quoted"]` and
// `[[array.of.tables]]` headers, basic and literal strings, integers, booleans, arrays (over several lines)
// and inline tables. Anything else (dates, floats, multi-line strings) is refused with its line number, so
// a configuration this reader cannot represent is never half-read.

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export class TomlError extends Error {
  override readonly name = "TomlError";
}

export function isTomlTable(value: TomlValue | undefined): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Cursor {
  position = 0;
  constructor(readonly text: string) {}

  get line(): number {
    return this.text.slice(0, this.position).split("\n").length;
  }
  fail(why: string): TomlError {
    return new TomlError(`line ${this.line}: ${why}`);
  }
  peek(): string {
    return this.text[this.position] ?? "";
  }
  /** Skips spaces and tabs, and with `newlines` also line ends and comments. */
  skip(newlines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t" || c === "\r") this.position++;
      else if (newlines && c === "\n") this.position++;
      else if (c === "#") {
        const end = this.text.indexOf("\n", this.position);
        this.position = end < 0 ? this.text.length : end;
      } else return;
    }
  }
  expect(c: string): void {
    if (this.peek() !== c)
      throw this.fail(`expected ${JSON.stringify(c)}, found ${JSON.stringify(this.peek())}`);
    this.position++;
  }
  endOfLine(): void {
    this.skip(false);
    const c = this.peek();
    if (c !== "" && c !== "\n") throw this.fail(`unexpected ${JSON.stringify(c)} after a value`);
  }
}

const ESCAPES: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };

function readBasicString(cursor: Cursor): string {
  cursor.expect('"');
  if (cursor.text.startsWith('""', cursor.position))
    throw cursor.fail("multi-line strings are not supported");
  let out = "";
  for (;;) {
    const c = cursor.peek();
    if (c === "" || c === "\n") throw cursor.fail("unterminated string");
    cursor.position++;
    if (c === '"') return out;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = cursor.peek();
    cursor.position++;
    if (e === "u" || e === "U") {
      const length = e === "u" ? 4 : 8;
      const hex = cursor.text.slice(cursor.position, cursor.position + length);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) throw cursor.fail("bad \\u escape");
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      cursor.position += length;
    } else if (ESCAPES[e] !== undefined) out += ESCAPES[e];
    else throw cursor.fail(`unknown escape \\${e}`);
  }
}

function readLiteralString(cursor: Cursor): string {
  cursor.expect("'");
  const end = cursor.text.indexOf("'", cursor.position);
  const newline = cursor.text.indexOf("\n", cursor.position);
  if (end < 0 || (newline >= 0 && newline < end)) throw cursor.fail("unterminated literal string");
  const value = cursor.text.slice(cursor.position, end);
  cursor.position = end + 1;
  return value;
}

function readKeyPart(cursor: Cursor): string {
  const c = cursor.peek();
  if (c === '"') return readBasicString(cursor);
  if (c === "'") return readLiteralString(cursor);
  const match = /^[A-Za-z0-9_-]+/.exec(cursor.text.slice(cursor.position));
  if (!match) throw cursor.fail(`expected a key, found ${JSON.stringify(c)}`);
  cursor.position += match[0].length;
  return match[0];
}

function readKey(cursor: Cursor): string[] {
  const parts = [readKeyPart(cursor)];
  for (;;) {
    cursor.skip(false);
    if (cursor.peek() !== ".") return parts;
    cursor.position++;
    cursor.skip(false);
    parts.push(readKeyPart(cursor));
  }
}

function readValue(cursor: Cursor): TomlValue {
  const c = cursor.peek();
  if (c === '"') return readBasicString(cursor);
  if (c === "'") return readLiteralString(cursor);
  if (c === "[") return readArray(cursor);
  if (c === "{") return readInlineTable(cursor);
  const match = /^[^\s,\]}#]+/.exec(cursor.text.slice(cursor.position));
  const word = match?.[0] ?? "";
  cursor.position += word.length;
  if (word === "true") return true;
  if (word === "false") return false;
  if (/^[+-]?(?:0|[1-9](?:_?[0-9])*)$/.test(word)) return Number(word.replaceAll("_", ""));
  throw cursor.fail(`unsupported value ${JSON.stringify(word || c)}`);
}

function readArray(cursor: Cursor): TomlValue[] {
  cursor.expect("[");
  const items: TomlValue[] = [];
  for (;;) {
    cursor.skip(true);
    if (cursor.peek() === "]") break;
    items.push(readValue(cursor));
    cursor.skip(true);
    if (cursor.peek() === ",") cursor.position++;
    else if (cursor.peek() !== "]") throw cursor.fail("expected , or ] in an array");
  }
  cursor.position++;
  return items;
}

function readInlineTable(cursor: Cursor): TomlTable {
  cursor.expect("{");
  const table: TomlTable = {};
  cursor.skip(false);
  if (cursor.peek() === "}") {
    cursor.position++;
    return table;
  }
  for (;;) {
    cursor.skip(false);
    const key = readKey(cursor);
    cursor.skip(false);
    cursor.expect("=");
    cursor.skip(false);
    assign(cursor, table, key, readValue(cursor));
    cursor.skip(false);
    if (cursor.peek() === "}") break;
    cursor.expect(",");
  }
  cursor.position++;
  return table;
}

/** The table at `path` under `root`, made when missing; for an array of tables, its last element. */
function descend(cursor: Cursor, root: TomlTable, path: readonly string[]): TomlTable {
  let table = root;
  for (const part of path) {
    const existing = table[part];
    if (existing === undefined) {
      const made: TomlTable = {};
      table[part] = made;
      table = made;
    } else if (isTomlTable(existing)) table = existing;
    else if (Array.isArray(existing) && isTomlTable(existing.at(-1))) table = existing.at(-1) as TomlTable;
    else throw cursor.fail(`${path.join(".")} is not a table`);
  }
  return table;
}

function assign(cursor: Cursor, table: TomlTable, key: readonly string[], value: TomlValue): void {
  const parent = descend(cursor, table, key.slice(0, -1));
  const last = key.at(-1) as string;
  if (parent[last] !== undefined) throw cursor.fail(`${key.join(".")} is defined twice`);
  parent[last] = value;
}

export function parseToml(text: string): TomlTable {
  const cursor = new Cursor(text);
  const root: TomlTable = {};
  let current = root;
  for (;;) {
    cursor.skip(true);
    if (cursor.peek() === "") return root;
    if (cursor.peek() === "[") {
      const isArray = cursor.text.startsWith("[[", cursor.position);
      cursor.position += isArray ? 2 : 1;
      cursor.skip(false);
      const path = readKey(cursor);
      cursor.expect("]");
      if (isArray) cursor.expect("]");
      cursor.endOfLine();
      if (isArray) {
        const parent = descend(cursor, root, path.slice(0, -1));
        const last = path.at(-1) as string;
        const existing = parent[last] ?? [];
        if (!Array.isArray(existing)) throw cursor.fail(`${path.join(".")} is not an array of tables`);
        current = {};
        existing.push(current);
        parent[last] = existing;
      } else current = descend(cursor, root, path);
      continue;
    }
    const key = readKey(cursor);
    cursor.skip(false);
    cursor.expect("=");
    cursor.skip(false);
    assign(cursor, current, key, readValue(cursor));
    cursor.endOfLine();
  }
}
