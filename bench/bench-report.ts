import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface Metric {
  value: number;
  unit: string;
}

/** Prints the metrics as a table and writes `bench/results/<name>.json`. */
export function reportBenchmark(name: string, metrics: Record<string, Metric>): void {
  const rows = Object.entries(metrics).map(([metric, { value, unit }]) => [metric, formatValue(value), unit]);
  const widths = [0, 1, 2].map((i) =>
    Math.max(...rows.map((row) => (row[i] ?? "").length), ["metric", "value", "unit"][i]?.length ?? 0),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 1 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ");
  process.stdout.write(
    `\n${name}\n${line(["metric", "value", "unit"])}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`,
  );
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
  // dist/bench/<file>.js → <repo>/bench/results
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const file = join(root, "bench", "results", `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ name, metrics }, null, 2)}\n`);
  process.stdout.write(`\nwrote ${file}\n`);
}

function formatValue(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
