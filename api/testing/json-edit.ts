/**
 * Test helpers that edit a manifest by field path (`spec.volumes[1].name`), so tests can break
 * one field of a valid example without typing the whole document.
 */

type Container = Record<string, unknown> | unknown[];

function segmentsOf(path: string): (string | number)[] {
  return path.split(".").flatMap((part) => {
    const [name = "", ...indexes] = part.split("[");
    return [...(name === "" ? [] : [name]), ...indexes.map((index) => Number(index.replace("]", "")))];
  });
}

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function step(container: Container, segment: string | number): unknown {
  return Array.isArray(container) ? container[Number(segment)] : container[String(segment)];
}

function parentOf(root: unknown, path: string): { parent: Container; last: string | number } {
  const segments = segmentsOf(path);
  const last = segments.pop();
  if (last === undefined) throw new Error("empty path");
  let current = root;
  for (const segment of segments) {
    if (!isContainer(current)) throw new Error(`${path}: ${String(segment)} is not inside an object`);
    current = step(current, segment);
  }
  if (!isContainer(current)) throw new Error(`${path}: parent is not an object`);
  return { parent: current, last };
}

export function getPath(root: unknown, path: string): unknown {
  const { parent, last } = parentOf(root, path);
  return step(parent, last);
}

export function setPath(root: unknown, path: string, value: unknown): void {
  const { parent, last } = parentOf(root, path);
  if (Array.isArray(parent)) parent[Number(last)] = value;
  else parent[String(last)] = value;
}

export function deletePath(root: unknown, path: string): void {
  const { parent, last } = parentOf(root, path);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[String(last)];
}

/** A copy of `manifest` with each `[path, value]` set, or deleted when the value is undefined. */
export function withEdits(manifest: unknown, ...edits: [string, unknown][]): unknown {
  const copy = structuredClone(manifest);
  for (const [path, value] of edits) {
    if (value === undefined) deletePath(copy, path);
    else setPath(copy, path, value);
  }
  return copy;
}
