// distribution's logrus lines (`time=... level=warning msg="..." key=value ...`) into the dev
// cluster's log, at their own level, except that it calls every 4xx answer an error: a HEAD for a
// blob the registry lacks (404) and an auth challenge (401) are how the protocol works.
import type { ChildProcess } from "node:child_process";
import type { Logger } from "pino";

/** Forwards the child's stdout and stderr lines; returns the last 20 lines, for failure messages. */
export function forwardRegistryOutput(child: ChildProcess, log: Logger): string[] {
  const recent: string[] = [];
  const onLine = (line: string) => {
    if (!line.trim()) return;
    recent.push(line);
    if (recent.length > 20) recent.shift();
    const msg = /msg="((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? line;
    const level = levelOf(line, msg);
    log[level]({ line }, msg);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      lines.forEach(onLine);
    });
  }
  return recent;
}

function levelOf(line: string, msg: string): "error" | "warn" | "debug" {
  if (msg === "response completed with error") {
    const status = Number(/http\.response\.status=(\d+)/.exec(line)?.[1] ?? 0);
    return status >= 500 ? "warn" : "debug";
  }
  const level = /level=(\w+)/.exec(line)?.[1];
  if (level === "error" || level === "fatal" || level === "panic") return "error";
  if (level === "warning") return "warn";
  return "debug";
}
