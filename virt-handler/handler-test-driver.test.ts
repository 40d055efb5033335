// virt-handler against the dev API server and libvirt's test driver (test:///default): the whole
// handler as virt-handler.ts wires it, with the real converter and volume preparation, minus QEMU.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { Connection, DomainState } from "../libvirt/index.js";
import { CERTIFICATE_SECRETS, type TlsMaterial } from "../runtime/tls/tls-material.js";
import { httpsGet } from "../test/harness/https-get.js";
import { issueLoopbackServingCertificate, writeServingSecret } from "../test/harness/serving-certificate.js";
import { nodeKind, podKind, vmiKind } from "./kinds.js";
import {
  countVmiWrites,
  createScheduledVmi,
  dropControllerFinalizer,
  eventually,
  fakeImageStore,
  type HandlerCluster,
  setUseEmulation,
  startHandlerCluster,
} from "./testing/handler-cluster.js";
import { type RunningVirtHandler, startVirtHandler } from "./virt-handler.js";
import { HANDLER_FINALIZER } from "./vmi/vmi-decision.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const IMAGE = "localhost/tiny:latest";
const NO_KVM = { usable: false, detail: "the test says so" };

describe("virt-handler on libvirt's test driver", () => {
  let cluster: HandlerCluster;
  let libvirt: Connection;
  let handler: RunningVirtHandler;
  let stateDir = "";
  let imageStore = "";
  let serving: TlsMaterial;

  const start = (): Promise<RunningVirtHandler> =>
    startVirtHandler({
      nodeName: cluster.nodeName,
      libvirtUri: "test:///default",
      kubeConfig: cluster.api.kubeConfig(),
      namespace: "kubevirt",
      stateDir,
      imageStore,
      listen: { host: "127.0.0.1", port: 0 },
      metrics: { host: "127.0.0.1", port: 0 },
      heartbeatIntervalMs: 60_000,
      log,
      kvm: NO_KVM,
    });
  const vmis = () => cluster.client.resource(vmiKind);
  const getVmi = (name: string) => vmis().get({ namespace: "default", name });
  const domain = (name: string) => libvirt.findDomainByName(`default_${name}`);
  const phaseOf = async (name: string, phase: string) => {
    const vmi = await getVmi(name);
    return vmi.status?.phase === phase ? vmi : undefined;
  };

  before(async () => {
    cluster = await startHandlerCluster();
    stateDir = join(cluster.workDir, "state");
    imageStore = await fakeImageStore(join(cluster.workDir, "images"), "tiny");
    await setUseEmulation(cluster, true);
    // What virt-operator issues for virt-handler's servers (here for 127.0.0.1).
    serving = await issueLoopbackServingCertificate();
    await writeServingSecret(cluster.client, "kubevirt", CERTIFICATE_SECRETS.handlerServer, serving);
    libvirt = await Connection.open("test:///default"); // keeps the test driver's state across handlers
    handler = await start();
  });

  after(async () => {
    await handler.stop();
    await handler.done;
    for (const leftover of libvirt.listAllDomains()) {
      if (leftover.name.startsWith("default_")) {
        if (leftover.isActive()) await leftover.destroy();
        await leftover.undefine();
      }
      leftover.free();
    }
    await libvirt.close();
    await cluster.close();
  });

  test("the node: heartbeat, schedulable while libvirt answers, no KVM resource without KVM", async () => {
    const node = await eventually("the first heartbeat", async () => {
      const current = await cluster.client.resource(nodeKind).get({ name: cluster.nodeName });
      return current.metadata?.annotations?.["kubevirt.io/heartbeat"] ? current : undefined;
    });
    assert.match(
      node.metadata?.annotations?.["kubevirt.io/heartbeat"] ?? "",
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    assert.equal(node.metadata?.labels?.["kubevirt.io/schedulable"], "true");
    assert.equal(node.status?.capacity?.["devices.kubevirt.io/kvm"], undefined);
  });

  test("a Scheduled VMI runs: defined, tagged and started, then Running in one write", async () => {
    const { vmi } = await createScheduledVmi(cluster, { name: "run-me", image: IMAGE });
    const watch = await countVmiWrites(cluster, "default", "run-me", vmi.metadata?.resourceVersion);
    const running = await eventually("Running", () => phaseOf("run-me", "Running"));
    await new Promise((resolve) => setTimeout(resolve, 300)); // a second write would show by now
    watch.stop();
    assert.equal(watch.writes().length, 1, "Scheduled → Running is one write");
    assert.equal(running.status?.conditions?.find((c) => c.type === "Ready")?.status, "True");
    assert.deepEqual(running.metadata?.finalizers?.sort(), [
      "kubevirt.io/foregroundDeleteVirtualMachine",
      HANDLER_FINALIZER,
    ]);
    // The VMI has no NIC (no launcher runs here to give it a pod network): none is reported.
    assert.deepEqual(running.status?.interfaces ?? [], []);
    const libvirtDomain = domain("run-me");
    assert.ok(libvirtDomain, "the domain exists");
    assert.equal(libvirtDomain.state().state, DomainState.Running);
    assert.match(libvirtDomain.xml(), new RegExp(vmi.metadata?.uid ?? "no uid"));
    assert.ok(existsSync(join(stateDir, vmi.metadata?.uid ?? "")), "the VM directory exists");
    libvirtDomain.free();
  });

  test("pausing and resuming the domain shows in the VMI's conditions", async () => {
    const libvirtDomain = domain("run-me");
    assert.ok(libvirtDomain);
    await libvirtDomain.suspend();
    await eventually("Paused", async () => {
      const vmi = await getVmi("run-me");
      return vmi.status?.conditions?.find((c) => c.type === "Paused" && c.status === "True");
    });
    await libvirtDomain.resume();
    await eventually("not Paused", async () => {
      const vmi = await getVmi("run-me");
      const paused = vmi.status?.conditions?.some((c) => c.type === "Paused");
      return paused ? undefined : vmi;
    });
    libvirtDomain.free();
  });

  test("/metrics, over HTTPS with the handler's certificate, has the running VMI's counters", async () => {
    const metricsUrl = await eventually("the metrics server listening", () => handler.manager.metricsUrl);
    const text = (await httpsGet(`${metricsUrl}/metrics`, { ca: serving.caPem })).body;
    assert.match(
      text,
      /kubevirt_vmi_vcpu_seconds_total\{namespace="default",name="run-me",node="[^"]+"\} \d/,
    );
    assert.match(text, /kubevirt_vmi_memory_domain_bytes\{namespace="default",name="run-me"/);
    assert.match(text, /kubevirt_vmi_storage_read_traffic_bytes_total\{namespace="default",name="run-me"/);
  });

  test("a guest that powers off: Succeeded, finalizer dropped, domain and files gone", async () => {
    const libvirtDomain = domain("run-me");
    assert.ok(libvirtDomain);
    const uid = (await getVmi("run-me")).metadata?.uid ?? "";
    await libvirtDomain.shutdown(); // the test driver's guest "powers off" at once
    libvirtDomain.free();
    const done = await eventually("Succeeded", () => phaseOf("run-me", "Succeeded"));
    assert.equal(done.status?.reason, "GuestShutdown");
    assert.ok(!done.metadata?.finalizers?.includes(HANDLER_FINALIZER));
    await eventually("the domain to be undefined", () => (domain("run-me") === null ? true : undefined));
    await eventually("the files to go", () => (existsSync(join(stateDir, uid)) ? undefined : true));
  });

  test("deleting a VMI shuts its domain down and removes it, then the finalizer goes", async () => {
    const { vmi } = await createScheduledVmi(cluster, { name: "delete-me", image: IMAGE });
    await eventually("Running", () => phaseOf("delete-me", "Running"));
    await vmis().delete({ namespace: "default", name: "delete-me" });
    const stopped = await eventually("the handler's finalizer to go", async () => {
      const current = await getVmi("delete-me");
      return current.metadata?.finalizers?.includes(HANDLER_FINALIZER) ? undefined : current;
    });
    assert.equal(stopped.status?.phase, "Succeeded");
    assert.equal(domain("delete-me"), null, "the domain is gone before the finalizer is dropped");
    assert.equal(existsSync(join(stateDir, vmi.metadata?.uid ?? "")), false);
    await dropControllerFinalizer(cluster, stopped);
  });

  test("a launcher pod that is deleted stops the VM: Failed (LauncherPodGone)", async () => {
    const { pod } = await createScheduledVmi(cluster, { name: "lose-pod", image: IMAGE });
    await eventually("Running", () => phaseOf("lose-pod", "Running"));
    const ref = { namespace: "default", name: pod.metadata?.name ?? "" };
    await cluster.client.resource(podKind).delete(ref, { gracePeriodSeconds: 0 });
    const failed = await eventually("Failed", () => phaseOf("lose-pod", "Failed"));
    assert.equal(failed.status?.reason, "LauncherPodGone");
    assert.equal(domain("lose-pod"), null);
  });

  test("without KVM and without emulation a VMI fails saying so; allowing emulation lets the next one run", async () => {
    await setUseEmulation(cluster, false);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the handler follows the CR live
    await createScheduledVmi(cluster, { name: "no-kvm", image: IMAGE });
    const failed = await eventually("Failed", () => phaseOf("no-kvm", "Failed"));
    assert.equal(failed.status?.reason, "KvmUnavailable");
    assert.match(failed.status?.conditions?.find((c) => c.type === "Ready")?.message ?? "", /useEmulation/);
    assert.equal(domain("no-kvm"), null);
    await setUseEmulation(cluster, true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await createScheduledVmi(cluster, { name: "with-tcg", image: IMAGE });
    await eventually("Running", () => phaseOf("with-tcg", "Running"));
  });

  test("a restarted handler adopts running domains untouched and removes those of VMIs gone meanwhile", async () => {
    const { vmi: orphanVmi } = await createScheduledVmi(cluster, { name: "orphan", image: IMAGE });
    await eventually("Running", () => phaseOf("orphan", "Running"));
    const keptDomain = domain("with-tcg");
    assert.ok(keptDomain);
    const idBefore = keptDomain.id();
    await handler.stop();
    await handler.done;
    const node = await cluster.client.resource(nodeKind).get({ name: cluster.nodeName });
    assert.equal(
      node.metadata?.labels?.["kubevirt.io/schedulable"],
      "false",
      "a stopped handler takes its node out",
    );
    // While no handler runs: the orphan's VMI disappears for good, and a stray VM directory appears.
    const current = await getVmi("orphan");
    await vmis().update({ ...current, metadata: { ...current.metadata, finalizers: [] } });
    await vmis().delete({ namespace: "default", name: "orphan" });
    await mkdir(join(stateDir, "00000000-0000-0000-0000-000000000000"), { recursive: true });
    const watch = await countVmiWrites(cluster, "default", "with-tcg");
    handler = await start();
    await eventually("the orphan's domain to go", () => (domain("orphan") === null ? true : undefined));
    await eventually("the orphans' files to go", () =>
      existsSync(join(stateDir, orphanVmi.metadata?.uid ?? "")) ||
      existsSync(join(stateDir, "00000000-0000-0000-0000-000000000000"))
        ? undefined
        : true,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    watch.stop();
    assert.equal(keptDomain.id(), idBefore, "the running domain was not restarted");
    assert.equal(keptDomain.state().state, DomainState.Running);
    assert.equal(watch.writes().length, 0, "adopting a running VMI writes nothing");
    assert.equal((await getVmi("with-tcg")).status?.phase, "Running");
    keptDomain.free();
  });
});
