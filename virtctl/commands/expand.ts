/**
 * `virtctl expand --vm NAME | --file PATH|-  [-o yaml|json]`: a VirtualMachine with its
 * instancetype and preference applied, as virt-api's `expand-spec` (a stored VM) or
 * `expand-vm-spec` (a VM read from a file or stdin) returns it, printed as KubeVirt's virtctl
 * prints it (YAML with sorted keys; JSON indented by one space). Nothing is written.
 */
import { readFile } from "node:fs/promises";
import { Command, Option } from "commander";
import { parse } from "yaml";
import { explainFailure } from "../api/explain-failure.js";
import { SUBRESOURCE_GROUP_VERSION, subresourcePath } from "../api/kubevirt-paths.js";
import { manifestYaml } from "../create/manifest-yaml.js";
import { CliError, oneLine } from "../errors/cli-error.js";
import { type CommandDeps, type CommandIo, connectionFlagsOf } from "./command-deps.js";

interface ExpandFlags {
  readonly vm?: string;
  readonly file?: string;
  readonly output: string;
}

const FORMATS = ["yaml", "json"];

export function expandCommand(deps: CommandDeps): Command {
  return new Command("expand")
    .description("Return the VirtualMachine object with expanded instancetype and preference.")
    .addOption(
      new Option("--vm <name>", "the VirtualMachine to expand; mutually exclusive with --file").conflicts(
        "file",
      ),
    )
    .addOption(
      new Option(
        "-f, --file <path>",
        "expand the VirtualMachine in this file (- for stdin); mutually exclusive with --vm",
      ),
    )
    .option("-o, --output <format>", "the output format: yaml or json", "yaml")
    .action(async (flags: ExpandFlags, command: Command) => {
      if (!flags.vm && !flags.file)
        throw new CliError(
          "error invalid arguments - VirtualMachine name or file must be provided (--vm NAME or --file PATH)",
        );
      if (!FORMATS.includes(flags.output))
        throw new CliError(`error not supported output format defined: ${flags.output} (use yaml or json)`);
      const api = deps.connect(connectionFlagsOf(command));
      const namespace = api.namespace;
      let expanded: unknown;
      if (flags.vm) {
        const name = flags.vm;
        try {
          expanded = await api.get(subresourcePath(namespace, "virtualmachines", name, "expand-spec"));
        } catch (error) {
          throw await explainFailure(api, error, {
            action: `error expanding VirtualMachine - ${name} in namespace - ${namespace}`,
            resource: "virtualmachines",
            name,
          });
        }
      } else {
        const vm = await readVm(flags.file ?? "-", deps.io);
        const name = vm.metadata?.name ?? "";
        try {
          const path = `${SUBRESOURCE_GROUP_VERSION}/namespaces/${encodeURIComponent(namespace)}/expand-vm-spec`;
          const answer = await api.send("PUT", path, vm);
          expanded = JSON.parse(answer.body);
        } catch (error) {
          throw await explainFailure(api, error, {
            action: `error expanding VirtualMachine - ${name} in namespace - ${namespace}`,
            resource: "virtualmachines",
            name: "",
          });
        }
      }
      deps.io.stdout.write(
        flags.output === "json" ? `${JSON.stringify(expanded, null, " ")}\n` : manifestYaml(expanded),
      );
    });
}

interface VmDocument {
  readonly metadata?: { readonly name?: string };
}

/** The VM of a YAML or JSON file, or of stdin for `-`. */
async function readVm(path: string, io: CommandIo): Promise<VmDocument> {
  let text: string;
  try {
    text = path === "-" ? await readAll(io.stdin) : await readFile(path, "utf8");
  } catch (error) {
    throw new CliError(`error reading ${path === "-" ? "from stdin" : `file ${path}`}: ${oneLine(error)}`, {
      cause: error,
    });
  }
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new CliError(`error decoding VirtualMachine: ${oneLine(error)}`, { cause: error });
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    throw new CliError(
      "error decoding VirtualMachine: the input is not one object (give one VirtualMachine)",
    );
  return document as VmDocument;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}
