import { Command } from "commander";

/**
 * A component's command line: commander throws instead of exiting (so tests can parse bad flags)
 * and writes its messages and help to stderr.
 */
export function componentCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

/**
 * Runs a component's parse in its main: a command line commander refused (it printed why) or
 * answered (`--help`) ends the process with commander's exit code.
 */
export function parseOrExit<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const code = (error as { exitCode?: unknown }).exitCode;
    process.exit(typeof code === "number" ? code : 2);
  }
}
