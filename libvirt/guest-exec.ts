// qemu-ga's guest-ping and guest-exec/guest-exec-status, over virDomainQemuAgentCommand: what exec
// and guestAgentPing probes run. The agent starts the process and returns its pid; its status is
// polled until it exits or the deadline passes (the agent has no "wait" of its own).
import { setTimeout as sleep } from "node:timers/promises";

/** What sends one agent command (a Domain). */
export interface AgentCommander {
  agentCommand(command: string, timeoutSeconds: number): Promise<string>;
}

export interface AgentExecOptions {
  /** The whole run, start to exit (default 10 s). */
  readonly timeoutMs?: number;
  /** Between guest-exec-status polls (default 100 ms). */
  readonly pollIntervalMs?: number;
}

export interface AgentExecResult {
  /** The exit code, or null when a signal ended the process. */
  readonly exitCode: number | null;
  readonly signal?: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface ExecStatus {
  exited?: boolean;
  exitcode?: number;
  signal?: number;
  "out-data"?: string;
  "err-data"?: string;
}

/** The agent answered with something else than `{"return": …}`. */
export class AgentReplyError extends Error {
  override readonly name = "AgentReplyError";
}

function returned<T>(command: string, reply: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply);
  } catch (cause) {
    throw new AgentReplyError(`${command}: the guest agent's reply is not JSON: ${reply}`, { cause });
  }
  if (typeof parsed !== "object" || parsed === null || !("return" in parsed)) {
    throw new AgentReplyError(`${command}: the guest agent's reply has no return value: ${reply}`);
  }
  return parsed.return as T;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** guest-ping: resolves when the agent answers within `timeoutSeconds`, throws otherwise. */
export async function agentPing(domain: AgentCommander, timeoutSeconds = 1): Promise<void> {
  returned("guest-ping", await domain.agentCommand('{"execute":"guest-ping"}', timeoutSeconds));
}

/** Runs `argv` in the guest through the agent and waits for it to exit (throws on timeout). */
export async function agentExec(
  domain: AgentCommander,
  argv: readonly string[],
  options: AgentExecOptions = {},
): Promise<AgentExecResult> {
  const [path, ...arg] = argv;
  if (path === undefined) throw new Error("guest-exec needs a command");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  const start = JSON.stringify({ execute: "guest-exec", arguments: { path, arg, "capture-output": true } });
  const { pid } = returned<{ pid: number }>(
    "guest-exec",
    await domain.agentCommand(start, seconds(timeoutMs)),
  );
  const poll = JSON.stringify({ execute: "guest-exec-status", arguments: { pid } });
  for (;;) {
    const left = deadline - Date.now();
    const reply = await domain.agentCommand(poll, seconds(left));
    const status = returned<ExecStatus>("guest-exec-status", reply);
    if (status.exited) return resultOf(status);
    if (left <= 0) throw new Error(`guest-exec ${path}: still running after ${timeoutMs} ms`);
    await sleep(Math.min(options.pollIntervalMs ?? 100, Math.max(left, 1)));
  }
}

function resultOf(status: ExecStatus): AgentExecResult {
  const decode = (data: string | undefined) => Buffer.from(data ?? "", "base64").toString("utf8");
  return {
    exitCode: status.signal !== undefined ? null : (status.exitcode ?? 0),
    ...(status.signal !== undefined ? { signal: status.signal } : {}),
    stdout: decode(status["out-data"]),
    stderr: decode(status["err-data"]),
  };
}
