/**
 * virtctl end to end, as a KubeVirt user runs it: `npm start`'s stack (the dev cluster, kubevirt-ts
 * installed by virt-operator, virt-api behind API aggregation), the machine's real kubectl, virtctl
 * as `node dist/virtctl/main.js`, and the test guest booting under real libvirt and QEMU. The
 * console is driven through a real pseudo-terminal (util-linux `script`) where a user's terminal
 * matters, and on pipes where bytes are counted. Runs as root.
 *
 * One VM (vm-a) goes through the tests in order. The console that must stay up through a minute of
 * idleness is opened early and checked after the tests that do not touch vm-a's console
 * (discovery, version, webhook, VNC, RBAC, and a second VM, vm-b, printing 10.8 MB on its own
 * console), so its minute is spent on them rather than waited out. At most two guests run.
 */
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { KubeApiError } from "../../runtime/index.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { TEST_GUEST_BANNER, TEST_GUEST_PROMPT } from "../guest/guest-console.js";
import { vmKind } from "./testing/kinds.js";
import { type CellExpectation, waitForTableRow } from "./testing/kubectl-table.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { pollUntil } from "./testing/poll.js";
import { rfbGreeting } from "./testing/rfb-greeting.js";
import { RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { SequenceOutput, sequenceCommand } from "./testing/sequence-output.js";
import { runVirtctl, type VirtctlResult, VirtctlSession } from "./testing/virtctl-process.js";
import { tinyVm, vmWithDiskWithoutVolume } from "./testing/vm-manifests.js";
import { createVmViewer } from "./testing/vm-viewer.js";

/** A TCG boot of the test guest takes ~5 s alone; allow for a busy machine. */
const BOOT_MS = 90_000;
/** How long the idle console must stay quiet and connected. */
const IDLE_MS = 60_000;
/** `seq -w 1 1200000` on the guest's serial tty: 1.2 M lines of 9 bytes, 10.8 MB. */
const SEQUENCE_LINES = 1_200_000;
/**
 * Generous: the guest's emulated serial port is the slow part (about 0.1 MB/s under TCG here, on
 * libvirt's own stream as through virtctl: see bench/console.ts), and the machine is shared.
 */
const SEQUENCE_DEADLINE_MS = 360_000;
/** A pause in the output this long is a stall, not a slow machine. */
const STALL_MS = 20_000;
const CONNECTED = (name: string) => `Successfully connected to ${name} console`;

describe("virtctl end to end: console, VNC, lifecycle, aggregation and webhooks on npm start", {
  timeout: 600_000,
}, () => {
  const namespace = `vctl-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  const vmA = "vm-a";
  /** The second guest, only while it prints the 10.8 MB. */
  const vmB = "vm-b";
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  const sessions = new Set<VirtctlSession>();
  /** The console kept idle across the tests that leave vm-a's console alone. */
  let idle: { session: VirtctlSession; quietSince: number } | undefined;

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const target = (kubeconfig = requireStack().kubeconfig) => ({
    repoRoot: requireStack().repoRoot,
    kubeconfig,
    namespace,
  });
  const virtctl = (...args: string[]) => runVirtctl(target(), args);
  const virtctlOk = async (...args: string[]) => {
    const result = await virtctl(...args);
    assert.equal(result.code, 0, `virtctl ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const startSession = (args: string[], options: { terminal: boolean; kubeconfig?: string }) => {
    const session = VirtctlSession.start(target(options.kubeconfig), args, options);
    sessions.add(session);
    void session.exited.then(() => sessions.delete(session));
    return session;
  };
  /** `virtctl console NAME`, connected (the guest may still be paused or booting). */
  const openConsole = async (options: { terminal: boolean; showTerminalAfter?: boolean }, name = vmA) => {
    const session = startSession(["console", name], options);
    await session.messages.waitFor(CONNECTED(name), BOOT_MS);
    return session;
  };
  /** Enter at the guest's shell, and its prompt back: the console is live both ways. */
  const promptAnswers = async (session: VirtctlSession) => {
    const from = session.output.text.length;
    await session.write("\r");
    return session.output.waitFor(TEST_GUEST_PROMPT, 20_000, from);
  };
  /** Types `echo` of a computed marker; the answer is the computed text, which the echo of the typed line is not. */
  const echoAnswers = async (session: VirtctlSession, tag: string) => {
    const from = session.output.text.length;
    await session.type(`echo ${tag}-$((6*7))-ok`);
    await session.output.waitFor(`${tag}-42-ok`, 20_000, from);
  };
  const leaveWithEscape = async (session: VirtctlSession) => {
    await session.escape();
    const exit = await session.exit("virtctl console after Ctrl+]", 15_000);
    assert.deepEqual(
      exit,
      { code: 0, signal: null },
      `Ctrl+] ends virtctl with 0:\n${session.output.tail()}`,
    );
  };
  /** After virtctl ended on a terminal, `stty -a` shows it cooked again, as before virtctl made it raw. */
  const terminalRestored = (session: VirtctlSession) => {
    const text = session.output.text;
    const settings = text.slice(text.lastIndexOf("speed "));
    for (const flag of ["icanon", "echo", "isig", "icrnl", "opost"]) {
      assert.match(settings, new RegExp(`(?:^|\\s)${flag}(?=\\s|$)`), `${flag} is on again:\n${settings}`);
    }
  };
  /** `kubectl get vm NAME` once its row shows `expected` (e.g. { STATUS: "Running" }). */
  const vmRowShows = (name: string, expected: Record<string, CellExpectation>, timeoutMs = 60_000) =>
    waitForTableRow(kubectl, ["get", "vm", name, "-n", namespace], name, expected, timeoutMs);
  /** `kubectl get vmi NAME -o wide` once its row shows `expected`, or says NotFound ("gone"). */
  const vmiRowShows = (
    name: string,
    expected: Record<string, CellExpectation> | "gone",
    timeoutMs = 60_000,
  ) =>
    waitForTableRow(kubectl, ["get", "vmi", name, "-n", namespace, "-o", "wide"], name, expected, timeoutMs);
  /** The PAUSED cell of a VMI that is not paused: no Paused condition, or one that is False. */
  const NOT_PAUSED = /^(False)?$/;
  const stderrOf = (result: VirtctlResult) => result.stderr.trim();

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-virtctl-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "vctl" });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    for (const session of sessions) session.kill();
    await tearDownRun({ label: "virtctl e2e", namespace, workDir, stack, kubectl, domains });
  });

  test("virtctl start --paused: a Halted VM's VMI runs paused; kubectl shows it Paused", async () => {
    await kubectl.apply(
      JSON.stringify(tinyVm(requireStack().repoRoot, { name: vmA, namespace, runStrategy: "Halted" })),
    );
    await vmRowShows(vmA, { STATUS: "Stopped" });
    const said = await virtctlOk("start", vmA, "--paused");
    assert.match(said, /VM vm-a was scheduled to start/);
    await objects.waitForVmiPhase(vmA, "Running", { timeoutMs: BOOT_MS });
    await vmRowShows(vmA, { STATUS: "Paused" });
    await vmiRowShows(vmA, { PHASE: "Running", PAUSED: "True" });
  });

  test("virtctl console on a terminal: connects to the paused VM; after virtctl unpause the guest's banner shows, a typed command answers, Ctrl+] exits 0 and leaves the terminal as it was", async (t) => {
    const session = await openConsole({ terminal: true, showTerminalAfter: true });
    const said = await virtctlOk("unpause", "vm", vmA);
    assert.match(said, /VMI vm-a was scheduled to unpause/);
    const started = performance.now();
    const banner = await session.output.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    t.diagnostic(`unpause → banner on virtctl's terminal ${Math.round(performance.now() - started)} ms`);
    await session.output.waitFor(TEST_GUEST_PROMPT, 20_000, banner);
    await echoAnswers(session, "typed");
    await leaveWithEscape(session);
    terminalRestored(session);
    await vmRowShows(vmA, { STATUS: "Running", READY: "True" });
    await vmiRowShows(vmA, { PHASE: "Running", PAUSED: NOT_PAUSED });
  });

  test("a second console takes over: the first virtctl exits 1 saying why, its terminal restored; the second one answers", async () => {
    const first = await openConsole({ terminal: true, showTerminalAfter: true });
    await promptAnswers(first);
    const second = await openConsole({ terminal: false });
    const exit = await first.exit("the console that was taken over", 20_000);
    assert.deepEqual(exit, { code: 1, signal: null }, first.output.tail());
    assert.match(first.output.text, /error: .*taken over by another connection/);
    terminalRestored(first);
    await echoAnswers(second, "second");
    await leaveWithEscape(second);
  });

  test("a console left idle: opened now, checked after the tests that leave vm-a's console alone", async () => {
    const session = await openConsole({ terminal: true });
    await promptAnswers(session);
    idle = { session, quietSince: performance.now() };
  });

  test("kubectl get --raw /apis/subresources.kubevirt.io/v1 answers through aggregation and lists the subresources", async () => {
    const service = await kubectl.json<{ status?: { conditions?: { type: string; status: string }[] } }>([
      "apiservice",
      "v1.subresources.kubevirt.io",
    ]);
    const available = service.status?.conditions?.find((condition) => condition.type === "Available");
    assert.equal(available?.status, "True", `the APIService is Available: ${JSON.stringify(service.status)}`);
    const list = JSON.parse(await kubectl.ok(["get", "--raw", "/apis/subresources.kubevirt.io/v1"])) as {
      kind?: string;
      groupVersion?: string;
      resources?: { name: string }[];
    };
    assert.equal(list.kind, "APIResourceList");
    assert.equal(list.groupVersion, "subresources.kubevirt.io/v1");
    const names = (list.resources ?? []).map((resource) => resource.name);
    for (const name of [
      "virtualmachines/start",
      "virtualmachines/stop",
      "virtualmachines/restart",
      "virtualmachineinstances/pause",
      "virtualmachineinstances/unpause",
      "virtualmachineinstances/console",
      "virtualmachineinstances/vnc",
    ]) {
      assert.ok(names.includes(name), `${name} is listed: ${names.join(", ")}`);
    }
    const versions = await kubectl.ok(["api-versions"]);
    assert.match(versions, /^subresources\.kubevirt\.io\/v1$/m, "discovery names the aggregated group");
  });

  test("virtctl version prints the client's and the server's version", async () => {
    const said = await virtctlOk("version");
    assert.match(said, /^Client Version: version\.Info\{GitVersion:"v[^"]+"/m);
    assert.match(said, /^Server Version: version\.Info\{GitVersion:"v[^"]+"/m);
  });

  test("kubectl apply of a VM whose disk names no volume is refused by the validating webhook, naming the field path", async () => {
    const name = "vm-invalid";
    const manifest = vmWithDiskWithoutVolume(requireStack().repoRoot, {
      name,
      namespace,
      diskName: "nosuchvolume",
    });
    const applied = await kubectl.run(["apply", "-f", "-"], { input: JSON.stringify(manifest) });
    assert.notEqual(applied.code, 0, `kubectl apply accepted the invalid VM: ${applied.stdout}`);
    // kubectl words a 422 with causes as KubeVirt users know it: "The request is invalid: FIELD: MESSAGE".
    // disks[0] and [1] are the example's containerdisk and cloudinitdisk; only virt-api's
    // validation knows which volumes exist.
    assert.match(
      applied.stderr,
      /^The request is invalid: spec\.template\.spec\.domain\.devices\.disks\[2\]\.name: .*'nosuchvolume' not found/m,
    );
    // kubectl shows the causes; the Status behind them says who refused.
    await assert.rejects(requireStack().client.resource(vmKind).create(manifest), (error: unknown) => {
      assert.ok(error instanceof KubeApiError, String(error));
      assert.equal(error.code, 422);
      assert.match(
        error.status?.message ?? "",
        /^admission webhook "virtualmachine-validator\.kubevirt\.io" denied the request: /,
      );
      assert.ok(
        error.causes.some((cause) => cause.field === "spec.template.spec.domain.devices.disks[2].name"),
        JSON.stringify(error.causes),
      );
      return true;
    });
    const get = await kubectl.run(["get", "vm", name, "-n", namespace]);
    assert.match(get.stderr, /NotFound/, "nothing was stored");
  });

  test("virtctl vnc --proxy-only --port 0 prints a port; TCP connections to it get the guest's RFB greeting", async () => {
    const session = startSession(["vnc", vmA, "--proxy-only", "--port", "0"], { terminal: false });
    const lineEnd = await session.output.waitFor("\n", 30_000);
    const printed = JSON.parse(session.output.text.slice(0, lineEnd)) as { port?: number };
    assert.ok(printed.port && printed.port > 0, `a port: ${session.output.text}`);
    // Two viewers at once: VNC, unlike the console, is shared.
    const greetings = await Promise.all([rfbGreeting(printed.port), rfbGreeting(printed.port)]);
    for (const greeting of greetings) assert.match(greeting, /^RFB 003\.00\d\n$/);
    session.signal("SIGINT");
    const exit = await session.exit("virtctl vnc after SIGINT", 15_000);
    assert.deepEqual(exit, { code: 0, signal: null }, session.messages.tail());
  });

  test("a user without RBAC for the console: virtctl console exits 1 saying it is not allowed", async (t) => {
    const users = `${namespace}-users`;
    const viewerConfig = await createVmViewer(kubectl, {
      userNamespace: users,
      vmNamespace: namespace,
      serverKubeconfig: requireStack().kubeconfig,
      kubeconfig: join(workDir, "viewer.kubeconfig"),
    });
    // It may read VMs and VMIs (its token works), so the refusal can only be the console's own.
    const viewer = new Kubectl(viewerConfig, join(workDir, "viewer-cache"));
    await pollUntil("the viewer's Role to apply", async () =>
      (await viewer.run(["get", "vmi", vmA, "-n", namespace])).code === 0 ? true : undefined,
    );
    const session = startSession(["console", vmA], { terminal: false, kubeconfig: viewerConfig });
    const exit = await session.exit("virtctl console without RBAC", 30_000);
    const said = session.messages.text.trim();
    t.diagnostic(said);
    assert.deepEqual(exit, { code: 1, signal: null }, said);
    assert.match(said, /^error: not allowed: /, said);
    assert.match(said, /virtualmachineinstances\/console/, said);
    assert.doesNotMatch(said, /Successfully connected/);
    await kubectl.ok(["delete", "namespace", users, "--wait=false"]);
  });

  test("10.8 MB of a second guest's console output reach virtctl whole, in order, without stalling", async (t) => {
    await kubectl.apply(JSON.stringify(tinyVm(requireStack().repoRoot, { name: vmB, namespace })));
    const session = await openConsole({ terminal: false }, vmB);
    // Connected once the VMI runs: the shell answers once the guest has booted.
    await pollUntil(
      "vm-b's shell to answer",
      async () => ((await promptAnswers(session).catch(() => undefined)) === undefined ? undefined : true),
      { timeoutMs: BOOT_MS },
    );
    const sequence = new SequenceOutput(session.stdout, SEQUENCE_LINES);
    const typedAt = performance.now();
    await session.type(sequenceCommand(SEQUENCE_LINES));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `${sequence.received} of ${sequence.totalBytes} bytes after ${SEQUENCE_DEADLINE_MS} ms; stderr: ${session.messages.tail()}`,
            ),
          ),
        SEQUENCE_DEADLINE_MS,
      );
    });
    const result = await Promise.race([sequence.complete, late]).finally(() => clearTimeout(timer));
    const seconds = (result.lastByteAt - typedAt) / 1000;
    t.diagnostic(
      `${result.bytes} bytes in ${seconds.toFixed(1)} s (${(result.bytes / 1e6 / seconds).toFixed(2)} MB/s), longest pause ${Math.round(result.longestGapMs)} ms`,
    );
    assert.equal(result.bytes, sequence.totalBytes);
    assert.ok(
      result.longestGapMs < STALL_MS,
      `no pause of ${STALL_MS} ms: the longest was ${result.longestGapMs} ms`,
    );
    await session.output.waitFor(TEST_GUEST_PROMPT, 20_000, session.output.text.length - 64);
    assert.doesNotMatch(session.messages.text, /connection was lost|Reconnected/, "it never dropped");
    await leaveWithEscape(session);
    // One guest again for the rest.
    await kubectl.ok(["delete", "vm", vmB, "-n", namespace, "--wait=false"]);
  });

  test("the console left idle for 60 s is still connected, and a typed command answers", async (t) => {
    assert.ok(idle, "the idle console was opened");
    const { session, quietSince } = idle;
    const left = IDLE_MS - (performance.now() - quietSince);
    t.diagnostic(
      `idle ${Math.round((performance.now() - quietSince) / 1000)} s so far; waiting ${Math.max(0, Math.round(left / 1000))} s more`,
    );
    if (left > 0) await sleep(left);
    assert.ok(session.running(), `virtctl console still runs:\n${session.output.tail()}`);
    assert.doesNotMatch(session.output.text, /connection was lost|Reconnected/, "it never dropped");
    await echoAnswers(session, "idle");
    await leaveWithEscape(session);
  });

  test("virtctl pause and unpause: kubectl shows the VM Paused, then Running", async () => {
    assert.match(await virtctlOk("pause", "vm", vmA), /VMI vm-a was scheduled to pause/);
    await vmRowShows(vmA, { STATUS: "Paused" });
    await vmiRowShows(vmA, { PHASE: "Running", PAUSED: "True" });
    const again = await virtctl("pause", "vmi", vmA);
    assert.equal(again.code, 1, "pausing a paused VMI is refused");
    assert.match(stderrOf(again), /^error: .*paused/i);
    assert.match(await virtctlOk("unpause", "vmi", vmA), /VMI vm-a was scheduled to unpause/);
    await vmRowShows(vmA, { STATUS: "Running", READY: "True" });
    await vmiRowShows(vmA, { PHASE: "Running", PAUSED: NOT_PAUSED });
  });

  test("virtctl stop and start: kubectl shows the VM Stopped with no VMI, then Running with a new one", async () => {
    const before = (await objects.vmi(vmA))?.metadata?.uid;
    assert.match(await virtctlOk("stop", vmA), /VM vm-a was scheduled to stop/);
    await vmRowShows(vmA, { STATUS: "Stopped", READY: "False" });
    await vmiRowShows(vmA, "gone");
    const notRunning = await virtctl("console", vmA);
    assert.equal(notRunning.code, 1);
    assert.match(stderrOf(notRunning), /not running: start it with `virtctl start vm-a`/);
    assert.match(await virtctlOk("start", vmA), /VM vm-a was scheduled to start/);
    const vmi = await objects.waitForVmiPhase(vmA, "Running", {
      timeoutMs: BOOT_MS,
      ...(before ? { notUid: before } : {}),
    });
    assert.notEqual(vmi.metadata?.uid, before, "a new VMI");
    await vmRowShows(vmA, { STATUS: "Running", READY: "True" }, BOOT_MS);
    await vmiRowShows(vmA, { PHASE: "Running" });
  });

  test("virtctl restart: a new VMI runs, and an open virtctl console follows it to the new guest", async () => {
    const before = (await objects.vmi(vmA))?.metadata?.uid;
    const session = await openConsole({ terminal: false });
    assert.match(await virtctlOk("restart", vmA), /VM vm-a was scheduled to restart/);
    const vmi = await objects.waitForVmiPhase(vmA, "Running", {
      timeoutMs: BOOT_MS,
      ...(before ? { notUid: before } : {}),
    });
    assert.notEqual(vmi.metadata?.uid, before, "a new VMI");
    await vmRowShows(vmA, { STATUS: "Running", READY: "True" }, BOOT_MS);
    await session.messages.waitFor(`Reconnected to ${vmA} console`, BOOT_MS);
    await pollUntil(
      "the restarted guest's shell to answer",
      async () => ((await promptAnswers(session).catch(() => undefined)) === undefined ? undefined : true),
      { timeoutMs: BOOT_MS },
    );
    await echoAnswers(session, "restarted");
    await leaveWithEscape(session);
  });
});
