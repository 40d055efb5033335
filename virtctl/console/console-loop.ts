/**
 * `virtctl console`'s life: wait for the VMI to run (up to --timeout), connect, and when the
 * connection ends for any reason but the user's Ctrl+] or a takeover (4001), find out why: a VM
 * that restarted (its VMI gone, replaced or not running) is waited for and reconnected to; a
 * connection lost while the VMI still runs is reconnected to at once, with a backoff and a limit
 * for connections that keep dropping. Every step is said on stderr.
 */
import type { Writable } from "node:stream";
import type { VirtualMachineInstance } from "../../api/index.js";
import type { ApiClient } from "../api/api-client.js";
import { ApiError } from "../api/api-error.js";
import { explainFailure } from "../api/explain-failure.js";
import { CliError } from "../errors/cli-error.js";
import { openVmiStream } from "../streams/stream-paths.js";
import { delayUnless, readOptional, waitForRunningVmi } from "../vmi/vmi-readiness.js";
import type { ConsoleInput } from "./console-input.js";
import { closeSocket, runConsoleSession } from "./console-session.js";

export interface ConsoleLoopOptions {
  readonly api: ApiClient;
  readonly name: string;
  readonly timeoutMinutes: number;
  readonly input: ConsoleInput;
  readonly output: Writable;
  /** Writes one line for the user (stderr). */
  readonly say: (line: string) => void;
  readonly pingIntervalMs: number;
  /** Called on each successful connection, before it is announced (the terminal goes raw). */
  readonly onConnected?: () => void;
}

/** KubeVirt's close code for a console another connection took over. */
export const TAKEN_OVER_CODE = 4001;
/** Connections that close this soon after opening count as dropping... */
const QUICK_DROP_MS = 2000;
/** ... and after this many in a row virtctl gives up. */
const MAX_QUICK_DROPS = 5;

/** What the loop keeps between connections. */
interface LoopState {
  escaped: boolean;
  connectedBefore: boolean;
  quickDrops: number;
}

/** Resolves with the exit code (0: Ctrl+] or the VM stopped); throws a CliError otherwise. */
export async function runConsoleLoop(options: ConsoleLoopOptions): Promise<number> {
  const state: LoopState = { escaped: false, connectedBefore: false, quickDrops: 0 };
  void options.input.escaped.then(() => {
    state.escaped = true;
  });
  let vmi = await waitUntilRunning(options, "connect");
  while (vmi) {
    const socket = await connect(options, state.connectedBefore);
    if (!socket) {
      // The VMI stopped running between the check and the connection: wait for it again.
      await delayUnless(1000, options.input.escaped);
      vmi = state.escaped ? undefined : await waitUntilRunning(options, "reconnect");
      continue;
    }
    options.onConnected?.();
    options.say(
      state.connectedBefore
        ? `Reconnected to ${options.name} console.`
        : `Successfully connected to ${options.name} console. The escape sequence is ^]`,
    );
    state.connectedBefore = true;
    const openedAt = Date.now();
    const end = await runConsoleSession(socket, options.input, options.output, {
      pingIntervalMs: options.pingIntervalMs,
    });
    if (end.by === "escape") {
      await closeSocket(socket, 1000, "the user pressed the escape sequence");
      return 0;
    }
    if (end.code === TAKEN_OVER_CODE) {
      throw new CliError(end.reason || "the console was taken over by another connection");
    }
    vmi = await afterClose(options, state, vmi, { ...end, openedAt });
  }
  return 0;
}

/**
 * Why the connection ended, and what next: the VMI to connect to again, or undefined to end.
 * A VM that restarted is waited for; a connection lost under a VMI that still runs is retried.
 */
async function afterClose(
  options: ConsoleLoopOptions,
  state: LoopState,
  vmi: VirtualMachineInstance,
  end: { code: number; reason: string; openedAt: number },
): Promise<VirtualMachineInstance | undefined> {
  const now = await readVmi(options);
  const change = vmChange(vmi, now);
  if (change) {
    options.say(
      `The console closed: VM ${options.name} ${change}; waiting up to ${options.timeoutMinutes} min for it to run (^] to quit).`,
    );
    state.quickDrops = 0;
    return waitUntilRunning(options, "reconnect");
  }
  const closeText = `code ${end.code}${end.reason ? `: ${end.reason}` : ""}`;
  state.quickDrops = Date.now() - end.openedAt < QUICK_DROP_MS ? state.quickDrops + 1 : 0;
  if (state.quickDrops >= MAX_QUICK_DROPS) {
    throw new CliError(`the console of ${options.name} keeps closing (${closeText}); giving up`);
  }
  options.say(`The console connection was lost (${closeText}); reconnecting.`);
  await delayUnless(state.quickDrops * 500, options.input.escaped);
  return state.escaped ? undefined : vmi;
}

/** How the VM changed under the console (said to the user), or undefined when the same VMI still runs. */
function vmChange(
  connected: VirtualMachineInstance,
  now: VirtualMachineInstance | undefined,
): string | undefined {
  if (!now) return "has no VMI";
  if (now.metadata?.uid !== connected.metadata?.uid) return "restarted";
  if (now.metadata?.deletionTimestamp) return "is stopping";
  if (now.status?.phase !== "Running") return `is ${now.status?.phase ?? "not running"}`;
  return undefined;
}

/**
 * The running VMI, or undefined when the user pressed Ctrl+] while waiting or (on a reconnect)
 * the VM stopped for good; throws when it is not running on the first connect, or too late.
 */
async function waitUntilRunning(
  options: ConsoleLoopOptions,
  why: "connect" | "reconnect",
): Promise<VirtualMachineInstance | undefined> {
  const { api, name } = options;
  const readiness = await waitForRunningVmi(api, name, {
    deadline: Date.now() + options.timeoutMinutes * 60_000,
    abort: options.input.escaped,
  });
  switch (readiness.state) {
    case "running":
      return readiness.vmi;
    case "aborted":
      return undefined;
    case "stopped":
      if (why === "reconnect") {
        options.say(`VM ${name} stopped; the console is closed.`);
        return undefined;
      }
      throw new CliError(`VMI ${name} is not running: start it with \`virtctl start ${name}\``);
    case "timed-out":
      throw new CliError(
        `VMI ${name} is not running after ${options.timeoutMinutes} min (phase ${readiness.phase ?? "none"}): see \`kubectl describe vmi ${name} -n ${api.namespace}\``,
      );
  }
}

/**
 * The console WebSocket, or undefined when virt-api says the VMI is not running (yet, or any
 * more). On a reconnect, a VMI that is gone (404) is a VM between two VMIs (a restart whose old
 * VMI went after virtctl last looked): waited for like one that does not run.
 */
async function connect(options: ConsoleLoopOptions, reconnecting: boolean) {
  const { api, name } = options;
  try {
    return await openVmiStream(api, name, "console");
  } catch (error) {
    const notRunning = error instanceof ApiError && (error.code === 400 || error.code === 409);
    if (notRunning && /not running|failed status/i.test(error.message)) return undefined;
    if (reconnecting && error instanceof ApiError && error.code === 404) return undefined;
    throw await explainFailure(api, error, {
      action: `cannot connect to the console of ${name}`,
      resource: "virtualmachineinstances",
      name,
    });
  }
}

function readVmi(options: ConsoleLoopOptions): Promise<VirtualMachineInstance | undefined> {
  return readOptional<VirtualMachineInstance>(options.api, "virtualmachineinstances", options.name);
}
