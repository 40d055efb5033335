/**
 * A small Dockerfile reader for the image build and its tests: instructions with line continuations and
 * comments handled, grouped into build stages. Enough for what images/*.Dockerfile use; not
 * BuildKit's full grammar (no heredocs, no parser directives beyond comments).
 */

export interface Instruction {
  /** Upper case: FROM, RUN, COPY, ENTRYPOINT, ... */
  readonly keyword: string;
  /** The rest of the instruction, continuations joined by a space. */
  readonly argument: string;
  readonly line: number;
}

export interface Stage {
  /** The FROM image (or an earlier stage's name). */
  readonly base: string;
  /** `AS name`, when given. */
  readonly name: string | undefined;
  readonly instructions: readonly Instruction[];
}

export function parseInstructions(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { keyword: string; parts: string[]; line: number } | undefined;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line.startsWith("#") || (line === "" && pending === undefined)) return;
    const continued = line.endsWith("\\");
    const content = continued ? line.slice(0, -1).trim() : line;
    if (pending === undefined) {
      const match = /^(\S+)\s*(.*)$/.exec(content);
      if (!match) return;
      pending = { keyword: (match[1] ?? "").toUpperCase(), parts: [match[2] ?? ""], line: index + 1 };
    } else if (content !== "") {
      pending.parts.push(content);
    }
    if (!continued) {
      instructions.push({
        keyword: pending.keyword,
        argument: pending.parts.join(" ").trim(),
        line: pending.line,
      });
      pending = undefined;
    }
  });
  if (pending !== undefined) throw new Error(`a continuation at line ${pending.line} never ends`);
  return instructions;
}

export function parseStages(text: string): Stage[] {
  const stages: { base: string; name: string | undefined; instructions: Instruction[] }[] = [];
  for (const instruction of parseInstructions(text)) {
    if (instruction.keyword === "FROM") {
      const words = instruction.argument.split(/\s+/).filter((word) => !word.startsWith("--"));
      const asIndex = words.findIndex((word) => word.toUpperCase() === "AS");
      stages.push({
        base: words[0] ?? "",
        name: asIndex >= 0 ? words[asIndex + 1] : undefined,
        instructions: [],
      });
      continue;
    }
    const current = stages.at(-1);
    if (!current) throw new Error(`${instruction.keyword} at line ${instruction.line} comes before any FROM`);
    current.instructions.push(instruction);
  }
  return stages;
}

/** An exec-form (JSON array) ENTRYPOINT or CMD; undefined for the shell form. */
export function execForm(argument: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(argument);
    return Array.isArray(parsed) && parsed.every((part) => typeof part === "string") ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export interface CopyInstruction {
  /** `--from=STAGE`, when given. */
  readonly from: string | undefined;
  readonly sources: readonly string[];
  readonly destination: string;
}

export function parseCopy(argument: string): CopyInstruction {
  const words = argument.split(/\s+/);
  const flags = words.filter((word) => word.startsWith("--"));
  const paths = words.filter((word) => !word.startsWith("--"));
  const from = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length);
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? "" };
}
