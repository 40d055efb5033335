#!/usr/bin/env node
/**
 * virtctl: KubeVirt's command line for VMs (start, stop, restart, pause, unpause, addvolume,
 * removevolume, console, vnc, version, create vm, expand, expose, port-forward, ssh, scp), reading the
 * kubeconfig like kubectl. This
 * file only wires the commands together; each lives in commands/.
 */
import { Command } from "commander";
import { ApiClient } from "./api/api-client.js";
import { addVolumeCommand } from "./commands/add-volume.js";
import { expandBooleanAssignments } from "./commands/boolean-assignments.js";
import type { CommandDeps } from "./commands/command-deps.js";
import { consoleCommand } from "./commands/console.js";
import { createCommand } from "./commands/create-vm.js";
import { expandCommand } from "./commands/expand.js";
import { exposeCommand } from "./commands/expose.js";
import { guestAgentCommands } from "./commands/guest-agent-info.js";
import { pauseCommand, unpauseCommand } from "./commands/pause.js";
import { portForwardCommand } from "./commands/port-forward.js";
import { removeVolumeCommand } from "./commands/remove-volume.js";
import { restartCommand } from "./commands/restart.js";
import { scpCommand } from "./commands/scp.js";
import { sshCommand } from "./commands/ssh.js";
import { startCommand } from "./commands/start.js";
import { stopCommand } from "./commands/stop.js";
import { versionCommand } from "./commands/version.js";
import { vncCommand } from "./commands/vnc.js";
import { exitAfterFlush, reportError } from "./errors/report-error.js";
import { loadKubeConfig } from "./kubeconfig/load-kubeconfig.js";

const deps: CommandDeps = {
  connect: (flags) => new ApiClient(loadKubeConfig(flags)),
  io: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
};

const program = new Command("virtctl")
  .description("Control KubeVirt virtual machines: start, stop, console, vnc, ...")
  .option("--kubeconfig <path>", "kubeconfig file (default: $KUBECONFIG, ~/.kube/config, or in-cluster)")
  .option("--context <name>", "the kubeconfig context to use (default: its current context)")
  .option("-n, --namespace <namespace>", "namespace (default: the context's, else default)")
  .showSuggestionAfterError();
for (const command of [
  startCommand(deps),
  stopCommand(deps),
  restartCommand(deps),
  pauseCommand(deps),
  unpauseCommand(deps),
  addVolumeCommand(deps),
  removeVolumeCommand(deps),
  consoleCommand(deps),
  vncCommand(deps),
  versionCommand(deps),
  createCommand(deps),
  expandCommand(deps),
  exposeCommand(deps),
  portForwardCommand(deps),
  sshCommand(deps),
  scpCommand(deps),
  ...guestAgentCommands(deps),
]) {
  program.addCommand(command);
}

// Whatever escapes still ends in one line and an exit, which restores the terminal ('exit').
const fatal = (error: unknown) => exitAfterFlush(reportError(error, process.stderr));
process.on("uncaughtException", fatal);
process.on("unhandledRejection", fatal);

try {
  await program.parseAsync(expandBooleanAssignments(process.argv, program));
  exitAfterFlush(typeof process.exitCode === "number" ? process.exitCode : 0);
} catch (error) {
  exitAfterFlush(reportError(error, process.stderr));
}
