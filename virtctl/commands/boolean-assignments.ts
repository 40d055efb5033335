/**
 * KubeVirt's virtctl (cobra) takes `--flag=true` and `--flag=false` for boolean flags, and the
 * ssh ProxyCommands users already have say `port-forward --stdio=true`. commander takes only
 * `--flag` and `--no-flag`: this rewrites the first form into the second, for the boolean flags
 * the commands define, before commander parses.
 */
import type { Command } from "commander";

export function expandBooleanAssignments(argv: readonly string[], program: Command): string[] {
  const booleans = booleanFlagsOf(program);
  return argv
    .map((word) => {
      const match = /^--([a-z0-9-]+)=(true|false)$/i.exec(word);
      const [, name = "", value = ""] = match ?? [];
      if (!match || !booleans.has(name)) return word;
      if (value.toLowerCase() === "true") return `--${name}`;
      // `--flag=false`: its negation when the command has one, else nothing (the flag is off by default).
      return booleans.get(name) ? `--no-${name}` : "";
    })
    .filter((word) => word !== "");
}

/** Each boolean flag's long name, and whether it has a `--no-` form. */
function booleanFlagsOf(program: Command): Map<string, boolean> {
  const flags = new Map<string, boolean>();
  const visit = (command: Command) => {
    for (const option of command.options) {
      if (option.required || option.optional || !option.long) continue;
      const name = option.long.replace(/^--(no-)?/, "");
      flags.set(name, (flags.get(name) ?? false) || option.negate);
    }
    for (const child of command.commands) visit(child);
  };
  visit(program);
  return flags;
}
