import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DomainState, PausedReason, ShutoffReason } from "../../libvirt/index.js";
import { deepFreeze } from "../../runtime/index.js";
import type { DomainFacts } from "../domain/observed-domain.js";
import type { Vmi } from "../kinds.js";
import { type Decision, type DecisionInput, decide, HANDLER_FINALIZER } from "./vmi-decision.js";

const NOW = Date.parse("2030-01-02T03:04:05Z");
const NOW_TEXT = "2030-01-02T03:04:05.000Z";

function vmi(
  phase: string,
  extra: { deleted?: boolean; finalizer?: boolean; grace?: number; status?: object } = {},
): Vmi {
  return deepFreeze({
    metadata: {
      name: "vm1",
      namespace: "ns",
      uid: "uid-1",
      resourceVersion: "7",
      ...(extra.deleted ? { deletionTimestamp: "2030-01-02T03:00:00Z" } : {}),
      finalizers: extra.finalizer ? ["other", HANDLER_FINALIZER] : ["other"],
    },
    spec: {
      domain: { devices: { interfaces: [{ name: "default", masquerade: {} }] } },
      ...(extra.grace === undefined ? {} : { terminationGracePeriodSeconds: extra.grace }),
    },
    status: { phase, nodeName: "node1", ...extra.status },
  } as Vmi) as Vmi;
}

const running: DomainFacts = {
  state: DomainState.Running,
  reason: 1,
  // The masquerade interface's tap, which lives in the launcher pod.
  interfaces: [
    { type: "ethernet", mac: "52:54:00:aa:bb:cc", alias: "ua-default", targetDev: "kt0123456789ab" },
  ],
};
const stopped = (reason: ShutoffReason): DomainFacts => ({
  state: DomainState.Shutoff,
  reason,
  interfaces: [],
});

function input(overrides: Partial<DecisionInput> & { vmi: Vmi }): DecisionInput {
  return {
    domain: undefined,
    launcher: "present",
    permission: { ok: true, emulation: true },
    shutdownRequestedAt: undefined,
    now: NOW,
    ...overrides,
  };
}

function written(decision: Decision): Vmi {
  if (decision.kind === "write") return decision.vmi;
  if (decision.kind === "finish" && decision.vmi !== undefined) return decision.vmi;
  assert.fail(`expected a write, got ${JSON.stringify(decision)}`);
}

describe("decide: starting", () => {
  test("a Scheduled VMI without a domain is started, with emulation as permitted", () => {
    assert.deepEqual(decide(input({ vmi: vmi("Scheduled") })), { kind: "start", emulation: true });
  });

  test("without KVM and without emulation it fails with the permission's reason, in one write", () => {
    const decision = decide(
      input({
        vmi: vmi("Scheduled"),
        permission: { ok: false, reason: "KvmUnavailable", message: "no kvm" },
      }),
    );
    assert.equal(decision.kind, "finish");
    const vmiAfter = written(decision);
    assert.equal(vmiAfter.status?.phase, "Failed");
    assert.equal(vmiAfter.status?.reason, "KvmUnavailable");
    const ready = vmiAfter.status?.conditions?.find((c) => c.type === "Ready");
    assert.equal(ready?.message, "no kvm");
    const failure = vmiAfter.status?.conditions?.find((c) => c.type === "Failure");
    assert.deepEqual(
      [failure?.status, failure?.reason, failure?.message],
      ["True", "KvmUnavailable", "no kvm"],
    );
  });

  test("a defined domain that never ran is started, not defined again", () => {
    const decision = decide(input({ vmi: vmi("Scheduled"), domain: stopped(ShutoffReason.Unknown) }));
    assert.deepEqual(decision, { kind: "start", emulation: true });
  });

  test("a written status read back with its keys in another order (as kube-apiserver stores them) needs no second write", () => {
    const first = written(decide(input({ vmi: vmi("Scheduled"), domain: running })));
    const sortKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sortKeys)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
            )
          : value;
    const stored = deepFreeze(sortKeys(structuredClone(first)) as Vmi) as Vmi;
    assert.equal(decide(input({ vmi: stored, domain: running })).kind, "none");
  });

  test("a running domain of a Scheduled VMI is adopted: Running, Ready, interfaces, finalizer, in one write", () => {
    const decision = decide(input({ vmi: vmi("Scheduled"), domain: running, podIPs: ["10.244.0.7"] }));
    assert.equal(decision.kind, "write");
    const after = written(decision);
    assert.equal(after.status?.phase, "Running");
    assert.deepEqual(after.status?.phaseTransitionTimestamps, [
      { phase: "Running", phaseTransitionTimestamp: NOW_TEXT },
    ]);
    assert.deepEqual(after.status?.conditions, [
      { type: "Ready", status: "True", lastProbeTime: null, lastTransitionTime: NOW_TEXT },
    ]);
    assert.deepEqual(after.status?.interfaces, [
      {
        infoSource: "domain",
        name: "default",
        mac: "52:54:00:aa:bb:cc",
        ipAddress: "10.244.0.7",
        ipAddresses: ["10.244.0.7"],
        podInterfaceName: "eth0",
      },
    ]);
    assert.deepEqual(after.metadata?.finalizers, ["other", HANDLER_FINALIZER]);
  });

  test("with a readiness probe, Ready mirrors the launcher pod's Ready condition", () => {
    const probed = () =>
      deepFreeze({
        ...vmi("Scheduled"),
        spec: { ...vmi("Scheduled").spec, readinessProbe: { tcpSocket: { port: 80 } } },
      } as Vmi) as Vmi;
    const readyOf = (launcherReady?: { status: string; reason?: string; message?: string }) =>
      written(
        decide(input({ vmi: probed(), domain: running, ...(launcherReady ? { launcherReady } : {}) })),
      ).status?.conditions?.find((condition) => condition.type === "Ready");
    assert.deepEqual(
      readyOf({
        status: "False",
        reason: "ContainersNotReady",
        message: "containers with unready status: [compute]",
      }),
      {
        type: "Ready",
        status: "False",
        reason: "ContainersNotReady",
        message: "containers with unready status: [compute]",
        lastProbeTime: null,
        lastTransitionTime: NOW_TEXT,
      },
    );
    assert.equal(readyOf({ status: "True" })?.status, "True");
    assert.equal(readyOf()?.reason, "PodConditionMissing");
  });

  test("QEMU's user-mode network is reachable at no address: its interface reports none", () => {
    const userMode: DomainFacts = {
      ...running,
      interfaces: [{ type: "user", mac: "52:54:00:aa:bb:cc", alias: "ua-default" }],
    };
    const after = written(decide(input({ vmi: vmi("Scheduled"), domain: userMode, podIPs: ["10.244.0.7"] })));
    assert.deepEqual(after.status?.interfaces, [
      { infoSource: "domain", name: "default", mac: "52:54:00:aa:bb:cc" },
    ]);
  });
});

describe("decide: running", () => {
  test("an unchanged running domain writes nothing (recomputing is idempotent)", () => {
    const first = written(decide(input({ vmi: vmi("Scheduled"), domain: running })));
    const later = decide(input({ vmi: deepFreeze(first) as Vmi, domain: running, now: NOW + 60_000 }));
    assert.deepEqual(later, { kind: "none" });
  });

  test("a paused domain: Paused condition, not Ready; resumed: Paused gone, Ready again", () => {
    const start = written(decide(input({ vmi: vmi("Scheduled"), domain: running })));
    const paused = { ...running, state: DomainState.Paused, reason: PausedReason.User };
    const whilePaused = written(
      decide(input({ vmi: deepFreeze(start) as Vmi, domain: paused, now: NOW + 1000 })),
    );
    const conditions = whilePaused.status?.conditions ?? [];
    assert.equal(conditions.find((c) => c.type === "Paused")?.status, "True");
    assert.equal(conditions.find((c) => c.type === "Paused")?.reason, "PausedByUser");
    assert.equal(conditions.find((c) => c.type === "Ready")?.status, "False");
    const resumed = written(
      decide(input({ vmi: deepFreeze(whilePaused) as Vmi, domain: running, now: NOW + 2000 })),
    );
    assert.deepEqual(
      resumed.status?.conditions?.map((c) => [c.type, c.status]),
      [["Ready", "True"]],
    );
    assert.equal(resumed.status?.phaseTransitionTimestamps?.length, 1, "pausing is not a phase change");
  });

  const endings: Array<[string, DomainFacts, string, string]> = [
    ["the guest powered off", stopped(ShutoffReason.Shutdown), "Succeeded", "GuestShutdown"],
    ["QEMU crashed", stopped(ShutoffReason.Crashed), "Failed", "Crashed"],
    ["QEMU failed", stopped(ShutoffReason.Failed), "Failed", "Failed"],
    ["someone destroyed it", stopped(ShutoffReason.Destroyed), "Failed", "Destroyed"],
    [
      "the guest panicked",
      { state: DomainState.Crashed, reason: 1, interfaces: [] },
      "Failed",
      "GuestPanicked",
    ],
  ];
  for (const [what, facts, phase, reason] of endings) {
    test(`${what}: ${phase} (${reason}), finalizer dropped in the same write, cleanup after it`, () => {
      const decision = decide(input({ vmi: vmi("Running", { finalizer: true }), domain: facts }));
      assert.equal(decision.kind, "finish");
      assert.equal(decision.kind === "finish" && decision.cleanupFirst, false);
      const after = written(decision);
      assert.equal(after.status?.phase, phase);
      assert.equal(after.status?.reason, reason);
      assert.deepEqual(after.metadata?.finalizers, ["other"]);
      assert.equal(after.status?.conditions?.find((c) => c.type === "Ready")?.status, "False");
    });
  }

  test("a Running VMI whose domain vanished fails (DomainLost)", () => {
    const after = written(decide(input({ vmi: vmi("Running", { finalizer: true }) })));
    assert.equal(after.status?.phase, "Failed");
    assert.equal(after.status?.reason, "DomainLost");
  });
});

describe("decide: stopping", () => {
  test("a deleted VMI with a running domain gets an ACPI shutdown, then waits, then is destroyed", () => {
    const deleted = vmi("Running", { deleted: true, finalizer: true, grace: 10 });
    const first = decide(input({ vmi: deleted, domain: running }));
    assert.deepEqual(first, { kind: "shutdown", recheckInMs: 10_000 });
    const waiting = decide(input({ vmi: deleted, domain: running, shutdownRequestedAt: NOW - 4_000 }));
    assert.deepEqual(waiting, { kind: "wait", recheckInMs: 6_000 });
    const late = decide(input({ vmi: deleted, domain: running, shutdownRequestedAt: NOW - 10_000 }));
    assert.deepEqual(late, { kind: "destroy" });
  });

  test("a grace period of 0 destroys at once", () => {
    const decision = decide(input({ vmi: vmi("Running", { deleted: true, grace: 0 }), domain: running }));
    assert.deepEqual(decision, { kind: "destroy" });
  });

  test("once the deleted VMI's domain is off: cleanup first, then Succeeded without the finalizer", () => {
    for (const facts of [stopped(ShutoffReason.Shutdown), stopped(ShutoffReason.Destroyed), undefined]) {
      const decision = decide(
        input({ vmi: vmi("Running", { deleted: true, finalizer: true }), domain: facts }),
      );
      assert.equal(decision.kind, "finish");
      assert.equal(decision.kind === "finish" && decision.cleanupFirst, true);
      const after = written(decision);
      assert.equal(after.status?.phase, "Succeeded");
      assert.deepEqual(after.metadata?.finalizers, ["other"]);
    }
  });

  test("a launcher pod that went away stops the VM and fails the VMI (LauncherPodGone)", () => {
    const alive = decide(
      input({ vmi: vmi("Running", { finalizer: true, grace: 30 }), domain: running, launcher: "gone" }),
    );
    assert.equal(alive.kind, "shutdown");
    const after = written(
      decide(
        input({
          vmi: vmi("Running", { finalizer: true }),
          domain: stopped(ShutoffReason.Shutdown),
          launcher: "gone",
        }),
      ),
    );
    assert.equal(after.status?.phase, "Failed");
    assert.equal(after.status?.reason, "LauncherPodGone");
  });

  test("a Scheduled VMI deleted before it started fails (DeletedBeforeStart) without starting", () => {
    const after = written(decide(input({ vmi: vmi("Scheduled", { deleted: true }) })));
    assert.equal(after.status?.phase, "Failed");
    assert.equal(after.status?.reason, "DeletedBeforeStart");
  });
});

describe("decide: finished VMIs", () => {
  test("a final VMI with a leftover domain: cleanup, then the finalizer goes", () => {
    const decision = decide(
      input({ vmi: vmi("Succeeded", { finalizer: true }), domain: stopped(ShutoffReason.Shutdown) }),
    );
    assert.equal(decision.kind, "finish");
    assert.deepEqual(written(decision).metadata?.finalizers, ["other"]);
    assert.equal(written(decision).status?.phase, "Succeeded");
  });

  test("a final VMI without domain or finalizer needs nothing", () => {
    assert.deepEqual(decide(input({ vmi: vmi("Failed") })), { kind: "none" });
  });

  test("VMIs not yet handed to the node are left alone", () => {
    for (const phase of ["Pending", "Scheduling"]) {
      assert.deepEqual(decide(input({ vmi: vmi(phase), domain: running })), { kind: "none" });
    }
  });
});
