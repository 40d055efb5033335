// The helper a ProgramRunner forks: spawns each program it is sent (no shell), collects its
// output and exit, and answers. It ends when its parent goes (the IPC channel closes).
import { spawn } from "node:child_process";
import type { ProgramReply, ProgramRequest } from "./program-protocol.js";

function run(request: ProgramRequest): void {
  const reply = (message: ProgramReply) => process.send?.(message);
  const child = spawn(request.command, request.args, {
    stdio: ["pipe", "pipe", "pipe"],
    env: request.env ?? process.env,
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let timedOut = false;
  const timer =
    request.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          child.kill("SIGKILL");
        }, request.timeoutMs);
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on("error", () => {}); // a program that exits without reading its input
  child.stdin.end(request.input);
  child.on("error", (error: NodeJS.ErrnoException) => {
    clearTimeout(timer);
    reply({
      id: request.id,
      ok: false,
      message: `cannot run ${request.command}: ${error.message}`,
      ...(error.code ? { startError: error.code } : {}),
    });
  });
  child.on("close", (code, signal) => {
    clearTimeout(timer);
    reply({
      id: request.id,
      ok: true,
      code,
      signal,
      stdout: Buffer.concat(stdout),
      stderr: Buffer.concat(stderr),
      timedOut,
    });
  });
}

process.on("message", (request: ProgramRequest) => run(request));
process.on("disconnect", () => process.exit(0));
