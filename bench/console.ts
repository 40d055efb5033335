/**
 * `npm run bench -- console`: how `virtctl console` feels. `npm start`'s stack, one VM of the test
 * guest (examples/vm-tiny.yaml), and:
 * - keystroke-to-echo latency, p50/p99 over 200 single keys typed at the guest's shell prompt
 *   (the guest's tty echoes each one): through the whole path (virtctl console → API server →
 *   virt-api → virt-handler → libvirt → the guest), with virtctl on pipes and on a pseudo-terminal
 *   (`script`, as a user's terminal), and, for comparison, directly on libvirt's console stream
 *   of the domain (our binding, as the end-to-end tests attach), so the difference is what the
 *   path adds;
 * - throughput of guest console output: the guest prints 3.2 MB (`seq -w 1 400000`) three times;
 *   from the typed command's Enter to the last byte, on virtctl's piped stdout (every byte
 *   checked) and on libvirt's stream directly.
 * The keys form a shell comment (`#abc…`), ended every 40 keys, so the shell does nothing with them.
 */
import { loadavg } from "node:os";
import { defineKind, type KubeObject } from "../runtime/index.js";
import { vmKind } from "../test/e2e/testing/kinds.js";
import type { KubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import type { RunDomains } from "../test/e2e/testing/run-domains.js";
import { SequenceOutput, sequenceCommand } from "../test/e2e/testing/sequence-output.js";
import { VirtctlSession, type VirtctlTarget } from "../test/e2e/testing/virtctl-process.js";
import { tinyVm } from "../test/e2e/testing/vm-manifests.js";
import { TEST_GUEST_BANNER, TEST_GUEST_PROMPT } from "../test/guest/guest-console.js";
import type { ConsoleTranscript } from "../test/libvirt/testing/console-transcript.js";
import { type Metric, percentile } from "./bench-report.js";
import { runVmBenchmark } from "./vm-bench-run.js";

const KEYS = 200;
const KEYS_PER_LINE = 40;
/** `seq -w 1 400000`: 3.2 MB a round; the serial port makes each round take about half a minute under TCG. */
const SEQUENCE_LINES = 400_000;
const THROUGHPUT_ROUNDS = 3;
const BOOT_MS = 120_000;
const ECHO_TIMEOUT_MS = 10_000;
const SEQUENCE_TIMEOUT_MS = 300_000;
const VM = "vm-console";

const namespaceKind = defineKind<KubeObject>({
  group: "",
  version: "v1",
  kind: "Namespace",
  plural: "namespaces",
  namespaced: false,
});

/** A console the benchmark types on and reads: libvirt's stream or virtctl's. */
interface TypedConsole {
  readonly transcript: ConsoleTranscript;
  write(bytes: string): Promise<void>;
}

/** Enter, and the prompt back. */
async function atPrompt(console: TypedConsole): Promise<void> {
  const from = console.transcript.text.length;
  await console.write("\r");
  await console.transcript.waitFor(TEST_GUEST_PROMPT, ECHO_TIMEOUT_MS, from);
}

/** Milliseconds from each key's write to its echo, KEYS of them. */
async function echoLatencies(console: TypedConsole): Promise<number[]> {
  const latencies: number[] = [];
  await atPrompt(console);
  for (let key = 0; key < KEYS; key++) {
    if (key % KEYS_PER_LINE === 0) {
      if (key > 0) await atPrompt(console);
      await typeAndWait(console, "#");
    }
    const char = String.fromCharCode(97 + (key % 26));
    latencies.push(await typeAndWait(console, char));
  }
  await atPrompt(console);
  return latencies;
}

async function typeAndWait(console: TypedConsole, char: string): Promise<number> {
  const from = console.transcript.text.length;
  const sent = performance.now();
  await console.write(char);
  await console.transcript.waitFor(char, ECHO_TIMEOUT_MS, from);
  return performance.now() - sent;
}

/** Waits for `pattern` in text that keeps growing, looking only at what is new each time. */
async function waitForGrowing(
  transcript: ConsoleTranscript,
  pattern: string,
  from: number,
  timeoutMs: number,
): Promise<number> {
  let at = from;
  return pollUntil(
    `"${pattern}" on the console`,
    () => {
      const text = transcript.text;
      const found = text.indexOf(pattern, at);
      if (found >= 0) return performance.now();
      at = Math.max(from, text.length - pattern.length);
      return undefined;
    },
    { timeoutMs, intervalMs: 5 },
  );
}

/** Bytes per second of `seq` output on libvirt's stream, from the Enter to the last line's arrival. */
async function directThroughput(console: TypedConsole): Promise<number> {
  const lastLine = `\n${String(SEQUENCE_LINES)}\r\n`;
  const from = console.transcript.text.length;
  const typed = performance.now();
  await console.write(`${sequenceCommand(SEQUENCE_LINES)}\r`);
  const lastAt = await waitForGrowing(console.transcript, lastLine, from, SEQUENCE_TIMEOUT_MS);
  await console.transcript.waitFor(TEST_GUEST_PROMPT, ECHO_TIMEOUT_MS, console.transcript.text.length - 64);
  const bytes = SEQUENCE_LINES * (String(SEQUENCE_LINES).length + 2);
  return bytes / ((lastAt - typed) / 1000);
}

/** Bytes per second of `seq` output on virtctl's piped stdout, every byte checked. */
async function virtctlThroughput(session: VirtctlSession): Promise<number> {
  const sequence = new SequenceOutput(session.stdout, SEQUENCE_LINES);
  const typed = performance.now();
  await session.type(sequenceCommand(SEQUENCE_LINES));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${sequence.received} bytes after ${SEQUENCE_TIMEOUT_MS} ms`)),
      SEQUENCE_TIMEOUT_MS,
    );
  });
  const result = await Promise.race([sequence.complete, late]).finally(() => clearTimeout(timer));
  await session.output.waitFor(TEST_GUEST_PROMPT, ECHO_TIMEOUT_MS, session.output.text.length - 64);
  return result.bytes / ((result.lastByteAt - typed) / 1000);
}

async function openVirtctlConsole(target: VirtctlTarget, terminal: boolean): Promise<VirtctlSession> {
  const session = VirtctlSession.start(target, ["console", VM], { terminal });
  await session.messages.waitFor(`Successfully connected to ${VM} console`, 60_000);
  return session;
}

function typedOn(session: VirtctlSession): TypedConsole {
  return { transcript: session.output, write: (bytes) => session.write(bytes) };
}

async function closeVirtctlConsole(session: VirtctlSession): Promise<void> {
  await session.escape();
  const exit = await session.exit("virtctl console after Ctrl+]", 15_000);
  if (exit.code !== 0) throw new Error(`virtctl console ended with ${JSON.stringify(exit)}`);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (value: number): Metric => ({ value, unit: "ms" });
const mbPerSecond = (bytesPerSecond: number): Metric => ({ value: bytesPerSecond / 1e6, unit: "MB/s" });

async function measure(stack: KubevirtStack, domains: RunDomains): Promise<Record<string, Metric>> {
  // The machine is shared: say how busy it was.
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  const namespace = domains.namespace;
  await stack.client
    .resource(namespaceKind)
    .create({ apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  await stack.client.resource(vmKind).create(tinyVm(stack.repoRoot, { name: VM, namespace }));
  // libvirt's stream first, attached while the guest boots; closed before virtctl's console
  // opens (both would want the one console: each open with force takes it from the other).
  const direct = await domains.attachConsole(domains.domainName(VM), { timeoutMs: BOOT_MS });
  let directLatencies: number[];
  const directRates: number[] = [];
  try {
    await direct.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    directLatencies = await echoLatencies(direct);
    for (let round = 0; round < THROUGHPUT_ROUNDS; round++) directRates.push(await directThroughput(direct));
  } finally {
    direct.close();
  }

  const target = { repoRoot: stack.repoRoot, kubeconfig: stack.kubeconfig, namespace };
  const piped = await openVirtctlConsole(target, false);
  let pipedLatencies: number[];
  const rates: number[] = [];
  try {
    pipedLatencies = await echoLatencies(typedOn(piped));
    for (let round = 0; round < THROUGHPUT_ROUNDS; round++) rates.push(await virtctlThroughput(piped));
    await closeVirtctlConsole(piped);
  } finally {
    piped.kill();
  }
  const terminal = await openVirtctlConsole(target, true);
  let terminalLatencies: number[];
  try {
    terminalLatencies = await echoLatencies(typedOn(terminal));
    await closeVirtctlConsole(terminal);
  } finally {
    terminal.kill();
  }

  const direct50 = percentile(sorted(directLatencies), 50);
  const piped50 = percentile(sorted(pipedLatencies), 50);
  return {
    virtctl_echo_p50_ms: ms(piped50),
    virtctl_echo_p99_ms: ms(percentile(sorted(pipedLatencies), 99)),
    virtctl_terminal_echo_p50_ms: ms(percentile(sorted(terminalLatencies), 50)),
    virtctl_terminal_echo_p99_ms: ms(percentile(sorted(terminalLatencies), 99)),
    libvirt_direct_echo_p50_ms: ms(direct50),
    libvirt_direct_echo_p99_ms: ms(percentile(sorted(directLatencies), 99)),
    path_adds_echo_p50_ms: ms(piped50 - direct50),
    virtctl_output_p50_MBps: mbPerSecond(percentile(sorted(rates), 50)),
    virtctl_output_min_MBps: mbPerSecond(Math.min(...rates)),
    libvirt_direct_output_p50_MBps: mbPerSecond(percentile(sorted(directRates), 50)),
    keys: { value: KEYS, unit: "keys" },
    output_bytes: { value: SEQUENCE_LINES * (String(SEQUENCE_LINES).length + 2), unit: "bytes" },
    output_rounds: { value: THROUGHPUT_ROUNDS, unit: "rounds" },
    load_average_1m_at_start: { value: loadAtStart, unit: "load" },
  };
}

await runVmBenchmark({ name: "console", tag: "cons", vm: VM }, measure);
