import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { listItemElement, listSemanticsOf } from "./list-items.js";
import { canonicalElement, comparePaths, type FieldPath, fieldElement } from "./path-element.js";

function keyOf(path: FieldPath): string {
  return JSON.stringify(path);
}

/**
 * An immutable set of field paths, the unit of ownership in server-side apply. A path that is a
 * member owns the value there; a map-list item's own path (written `.` on the wire) is a member
 * next to the paths of its fields.
 */
export class FieldSet {
  static readonly EMPTY = new FieldSet(new Map());

  readonly #members: ReadonlyMap<string, FieldPath>;
  /** Keys of every proper prefix of a member, built on first use. */
  #prefixes: Set<string> | undefined;

  private constructor(members: ReadonlyMap<string, FieldPath>) {
    this.#members = members;
  }

  static of(paths: Iterable<FieldPath>): FieldSet {
    const members = new Map<string, FieldPath>();
    for (const path of paths) members.set(keyOf(path), [...path]);
    return new FieldSet(members);
  }

  get size(): number {
    return this.#members.size;
  }

  isEmpty(): boolean {
    return this.#members.size === 0;
  }

  has(path: FieldPath): boolean {
    return this.#members.has(keyOf(path));
  }

  /** True when a member lies strictly below `path`. */
  hasDescendants(path: FieldPath): boolean {
    if (!this.#prefixes) {
      this.#prefixes = new Set();
      for (const member of this.#members.values()) {
        for (let length = 1; length < member.length; length++)
          this.#prefixes.add(keyOf(member.slice(0, length)));
      }
    }
    return this.#prefixes.has(keyOf(path));
  }

  /** The members in upstream's order (fields, then keys, then values, then indexes). */
  paths(): FieldPath[] {
    return [...this.#members.values()].sort(comparePaths);
  }

  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    return new FieldSet(new Map([...this.#members, ...other.#members]));
  }

  difference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    return this.filter((path) => !other.has(path));
  }

  intersection(other: FieldSet): FieldSet {
    return this.filter((path) => other.has(path));
  }

  filter(keep: (path: FieldPath) => boolean): FieldSet {
    return new FieldSet(new Map([...this.#members].filter(([, path]) => keep(path))));
  }

  equals(other: FieldSet): boolean {
    return this.size === other.size && [...this.#members.keys()].every((key) => other.#members.has(key));
  }
}

/**
 * The fields set in `object`: every leaf, every item of a set or map list, and the whole of
 * atomic lists and atomic maps. Empty granular maps own nothing, as upstream.
 */
export function fieldSetOf(object: JsonObject, semantics: FieldSemanticsLookup): FieldSet {
  const paths: FieldPath[] = [];
  collectMapFields(object, [], [], semantics, paths);
  return FieldSet.of(paths);
}

function collectMapFields(
  map: JsonObject,
  propertyPath: readonly string[],
  path: FieldPath,
  semantics: FieldSemanticsLookup,
  out: FieldPath[],
): void {
  for (const [name, value] of Object.entries(map)) {
    collectFields(value, [...propertyPath, name], [...path, fieldElement(name)], semantics, out);
  }
}

function collectFields(
  value: JsonValue,
  propertyPath: readonly string[],
  path: FieldPath,
  semantics: FieldSemanticsLookup,
  out: FieldPath[],
): void {
  const declared = semantics(propertyPath);
  if (isJsonObject(value) && declared?.map !== "atomic") {
    collectMapFields(value, propertyPath, path, semantics, out);
    return;
  }
  if (!Array.isArray(value)) {
    out.push(path);
    return;
  }
  const list = listSemanticsOf(value, declared);
  if (list.type === "atomic") {
    out.push(path);
    return;
  }
  for (const item of value) {
    const element = listItemElement(item, list);
    if (element === undefined) continue; // listSemanticsOf made sure every item has one
    out.push([...path, element]);
    if (list.type === "map" && isJsonObject(item)) {
      collectMapFields(item, propertyPath, [...path, element], semantics, out);
    }
  }
}

interface TrieNode {
  member: boolean;
  children: Map<string, TrieNode>;
}

function newNode(): TrieNode {
  return { member: false, children: new Map() };
}

/** The `fieldsV1` JSON of a set: nested elements, `{}` for leaves, `".": {}` for members with children. */
export function fieldSetToFieldsV1(set: FieldSet): JsonObject {
  const root = newNode();
  for (const path of set.paths()) {
    let node = root;
    for (const element of path) {
      let child = node.children.get(element);
      if (!child) {
        child = newNode();
        node.children.set(element, child);
      }
      node = child;
    }
    node.member = true;
  }
  return nodeToJson(root);
}

function nodeToJson(node: TrieNode): JsonObject {
  const json: JsonObject = {};
  if (node.member && node.children.size > 0) json["."] = {};
  for (const [element, child] of node.children) json[element] = nodeToJson(child);
  return json;
}

/** Parses `fieldsV1`; throws an Error describing the first malformed part. */
export function fieldSetFromFieldsV1(fieldsV1: JsonValue): FieldSet {
  if (!isJsonObject(fieldsV1)) throw new Error("fieldsV1 must be a JSON object");
  const paths: FieldPath[] = [];
  collectFieldsV1(fieldsV1, [], paths);
  return FieldSet.of(paths);
}

function collectFieldsV1(node: JsonObject, path: FieldPath, out: FieldPath[]): void {
  const keys = Object.keys(node);
  if (keys.length === 0 && path.length > 0) out.push(path);
  for (const key of keys) {
    const child = node[key];
    if (!isJsonObject(child)) throw new Error(`fieldsV1 entry ${JSON.stringify(key)} must be an object`);
    if (key === ".") {
      if (path.length > 0) out.push(path);
      continue;
    }
    collectFieldsV1(child, [...path, canonicalElement(key)], out);
  }
}
