// Reads kubectl's human-readable tables (`kubectl get vm`, `kubectl get vmi -o wide`) by column
// name, as a user reads them. kubectl left-aligns every cell under its header and may leave a cell
// empty, so cells are cut at the headers' offsets rather than split on spaces.
import type { Kubectl } from "../../dev-cluster/testing/kubectl.js";
import { pollUntil } from "./poll.js";

/** The rows of a `kubectl get` table, each as { COLUMN: cell }. */
export function tableRows(table: string): Record<string, string>[] {
  const [header, ...rows] = table.split("\n").filter((line) => line.trim() !== "");
  if (header === undefined) return [];
  const columns = [...header.matchAll(/\S+/g)].map((match) => ({ name: match[0], at: match.index ?? 0 }));
  return rows.map((row) =>
    Object.fromEntries(
      columns.map((column, index) => {
        const end = columns[index + 1]?.at ?? row.length;
        return [column.name, row.slice(column.at, end).trim()];
      }),
    ),
  );
}

/** The row whose NAME is `name`, or undefined. */
export function tableRow(table: string, name: string): Record<string, string> | undefined {
  return tableRows(table).find((row) => row.NAME === name);
}

/** What a cell must show: exactly this text, or text this pattern matches. */
export type CellExpectation = string | RegExp;

/** Whether every named cell of `row` shows what `expected` says. */
export function rowShows(
  row: Record<string, string> | undefined,
  expected: Readonly<Record<string, CellExpectation>>,
): boolean {
  if (!row) return false;
  return Object.entries(expected).every(([column, want]) => {
    const cell = row[column];
    if (cell === undefined) return false;
    return typeof want === "string" ? cell === want : want.test(cell);
  });
}

/** `{ STATUS: Running, PAUSED: /^(False)?$/ }`, for messages. */
export function describeExpectation(expected: Readonly<Record<string, CellExpectation>>): string {
  return `{ ${Object.entries(expected)
    .map(([column, want]) => `${column}: ${String(want)}`)
    .join(", ")} }`;
}

/**
 * Runs `kubectl ARGS` (a `get` of one object) until the row named `name` shows `expected`, or,
 * with "gone", until kubectl says NotFound; rejects after `timeoutMs` showing the last table.
 */
export function waitForTableRow(
  kubectl: Kubectl,
  args: readonly string[],
  name: string,
  expected: Readonly<Record<string, CellExpectation>> | "gone",
  timeoutMs: number,
): Promise<true> {
  let seen = "";
  return pollUntil(
    `kubectl ${args.join(" ")} to show ${expected === "gone" ? "NotFound" : describeExpectation(expected)}`,
    async () => {
      const result = await kubectl.run(args);
      seen = result.stdout || result.stderr;
      if (expected === "gone") return /NotFound/.test(result.stderr) ? true : undefined;
      const row = result.code === 0 ? tableRow(result.stdout, name) : undefined;
      return rowShows(row, expected) ? true : undefined;
    },
    { timeoutMs, intervalMs: 250, lastSeen: () => seen },
  );
}
