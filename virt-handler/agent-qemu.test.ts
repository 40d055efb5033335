// The guest agent end to end on the node's real libvirt (qemu:///system, TCG): the test guest's
// qemu-ga connects on the converter's channel, virt-handler reports AgentConnected, the guest's
// os-release as status.guestOSInfo, and the agent's view of the interfaces; guest-ping, guest-exec
// and virDomainGetGuestInfo answer through the libvirt binding, and the handler's console server
// serves guestosinfo, userlist and filesystemlist to virt-api (mutual TLS) until the agent leaves.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import {
  AgentLifecycleState,
  agentExec,
  agentPing,
  Connection,
  type Domain,
  DomainState,
  GuestInfoTypes,
  InterfaceAddressSource,
} from "../libvirt/index.js";
import { secretKind } from "../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../runtime/tls/tls-material.js";
import { ensureTestGuest, type TestGuest } from "../test/guest/ensure-test-guest.js";
import { TEST_GUEST_OS_ID } from "../test/guest/guest-scripts.js";
import { vmiKind } from "./kinds.js";
import { type ConsolePki, issueConsolePki, serverSecret } from "./testing/console-certificates.js";
import { type ConsoleEndpoint, send, subresourcePath } from "./testing/console-client.js";
import {
  createScheduledVmi,
  eventually,
  type HandlerCluster,
  setUseEmulation,
  startHandlerCluster,
} from "./testing/handler-cluster.js";
import { type RunningVirtHandler, startVirtHandler } from "./virt-handler.js";

const NAME = `agent-${process.pid}`;
const DOMAIN = `default_${NAME}`;
const BOOT_TIMEOUT_MS = 90_000;
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

describe("the guest agent on qemu:///system with the test guest", { timeout: 240_000 }, () => {
  let cluster: HandlerCluster;
  let guest: TestGuest;
  let libvirt: Connection;
  let handler: RunningVirtHandler;
  let pki: ConsolePki;
  let endpoint: ConsoleEndpoint;
  let domain: Domain | undefined;
  const agentEvents: AgentLifecycleState[] = [];

  const getVmi = () => cluster.client.resource(vmiKind).get({ namespace: "default", name: NAME });
  const ask = (subresource: string) =>
    send(endpoint, "GET", subresourcePath("default", NAME, subresource), pki.virtApi);

  before(async () => {
    [guest, pki] = await Promise.all([ensureTestGuest(), issueConsolePki()]);
    cluster = await startHandlerCluster();
    await setUseEmulation(cluster, true); // also creates the namespace "kubevirt"
    await cluster.client
      .resource(secretKind)
      .create(serverSecret(pki, "kubevirt", CERTIFICATE_SECRETS.handlerServer));
    libvirt = await Connection.open("qemu:///system");
    libvirt.onAgentLifecycle((event) => {
      if (event.domain.name === DOMAIN) agentEvents.push(event.state);
    });
    handler = await startVirtHandler({
      nodeName: cluster.nodeName,
      libvirtUri: "qemu:///system",
      kubeConfig: cluster.api.kubeConfig(),
      namespace: "kubevirt",
      stateDir: join(cluster.workDir, "state"),
      imageStore: guest.storeDir,
      console: { host: "127.0.0.1", port: 0 },
      heartbeatIntervalMs: 60_000,
      log,
    });
    const address = await eventually("the console server to listen", () => handler.consoleServer?.address);
    endpoint = { ...address, caPem: pki.ca.certPem };
  });

  after(async () => {
    domain?.free();
    await handler?.stop();
    await handler?.done;
    const leftover = libvirt?.findDomainByName(DOMAIN);
    if (leftover) {
      if (leftover.isActive()) await leftover.destroy();
      await leftover.undefine();
      leftover.free();
    }
    await libvirt?.close();
    await cluster?.close();
    rmSync(`/var/log/libvirt/qemu/${DOMAIN}.log`, { force: true });
  });

  test("AgentConnected becomes True and guestOSInfo is the guest's os-release", async (t) => {
    const started = performance.now();
    await createScheduledVmi(cluster, {
      name: NAME,
      image: guest.image,
      domain: {
        resources: { requests: { memory: "128Mi" } },
        firmware: {
          kernelBoot: {
            container: { image: guest.image, kernelPath: "/boot/vmlinuz", initrdPath: "/boot/initramfs.gz" },
            kernelArgs: guest.diskKernelArgs,
          },
        },
        devices: {
          disks: [{ name: "containerdisk", disk: { bus: "virtio" } }],
          interfaces: [],
          autoattachPodInterface: false,
        },
      },
      volumes: [{ name: "containerdisk", containerDisk: { image: guest.image } }],
      // Run by virt-handler through the agent: ready once /run/ready exists; alive while the agent answers.
      spec: {
        readinessProbe: {
          exec: { command: ["/bin/test", "-f", "/run/ready"] },
          periodSeconds: 1,
          failureThreshold: 1,
        },
        livenessProbe: { guestAgentPing: {}, periodSeconds: 1, failureThreshold: 3 },
      },
    });
    const connected = await eventually(
      "AgentConnected and guestOSInfo",
      async () => {
        const vmi = await getVmi();
        const condition = vmi.status?.conditions?.find((c) => c.type === "AgentConnected");
        return condition?.status === "True" && vmi.status?.guestOSInfo?.id ? vmi : undefined;
      },
      BOOT_TIMEOUT_MS,
    );
    t.diagnostic(`created → agent connected ${Math.round(performance.now() - started)} ms`);
    assert.equal(connected.status?.phase, "Running");
    assert.equal(connected.status?.guestOSInfo?.id, TEST_GUEST_OS_ID);
    assert.equal(connected.status?.guestOSInfo?.prettyName, "kubevirt-ts test guest 1");
    assert.equal(connected.status?.guestOSInfo?.versionId, "1");
    assert.equal(connected.status?.guestOSInfo?.machine, "x86_64");
    assert.match(connected.status?.guestOSInfo?.kernelRelease ?? "", /^6\.1\./);
    assert.ok(agentEvents.includes(AgentLifecycleState.Connected), "libvirt sent the agent lifecycle event");
  });

  test("guest-ping, guest-exec and guest info through the libvirt binding", async () => {
    domain = libvirt.lookupDomainByName(DOMAIN);
    assert.equal(domain.state().state, DomainState.Running);
    await agentPing(domain, 5);
    const ok = await agentExec(domain, ["/bin/sh", "-c", "echo hello from $(hostname); exit 3"]);
    assert.deepEqual(ok, { exitCode: 3, stdout: "hello from guest\n", stderr: "" });
    const info = await domain.guestInfo(
      GuestInfoTypes.OS | GuestInfoTypes.Hostname | GuestInfoTypes.Filesystem,
    );
    assert.equal(info.os?.id, TEST_GUEST_OS_ID);
    assert.equal(info.hostname, "guest");
    const root = info.filesystems?.find((fs) => fs.mountPoint === "/");
    assert.equal(root?.fsType, "ext4");
    assert.ok((root?.totalBytes ?? 0) > 0 && (root?.usedBytes ?? 0) > 0, "the root file system's sizes");
    const users = await domain.guestInfo(GuestInfoTypes.Users);
    assert.deepEqual(users.users ?? [], [], "nobody is logged in to the test guest");
    const interfaces = await domain.interfaceAddresses(InterfaceAddressSource.Agent);
    assert.ok(
      interfaces.some((nic) => nic.name === "lo"),
      "the agent lists the guest's interfaces",
    );
  });

  test("an exec readiness probe runs in the guest: Ready follows its exit code", async () => {
    const vmi = await getVmi();
    const ready = vmi.status?.conditions?.find((c) => c.type === "Ready");
    assert.equal(ready?.status, "False");
    assert.ok(domain);
    assert.equal((await agentExec(domain, ["/bin/touch", "/run/ready"])).exitCode, 0);
    await eventually(
      "Ready",
      async () => {
        const current = await getVmi();
        return current.status?.conditions?.find((c) => c.type === "Ready" && c.status === "True");
      },
      30_000,
    );
    assert.equal((await agentExec(domain, ["/bin/rm", "/run/ready"])).exitCode, 0);
    const notReady = await eventually(
      "not Ready again",
      async () => {
        const current = await getVmi();
        return current.status?.conditions?.find((c) => c.type === "Ready" && c.status === "False");
      },
      30_000,
    );
    assert.match(notReady.message ?? "", /exited with 1/);
  });

  test("the console server answers guestosinfo, userlist and filesystemlist in KubeVirt's shapes", async () => {
    const info = await ask("guestosinfo");
    assert.equal(info.status, 200, info.body);
    const agentInfo = JSON.parse(info.body);
    assert.equal(agentInfo.os.id, TEST_GUEST_OS_ID);
    assert.equal(agentInfo.hostname, "guest");
    assert.match(agentInfo.guestAgentVersion, /^7\.2/);
    assert.ok(agentInfo.supportedCommands.some((c: { name: string }) => c.name === "guest-exec"));
    assert.ok(agentInfo.fsInfo.disks.some((fs: { mountPoint: string }) => fs.mountPoint === "/"));
    const users = await ask("userlist");
    assert.equal(users.status, 200, users.body);
    assert.deepEqual(JSON.parse(users.body).items, []);
    const fsList = await ask("filesystemlist");
    assert.equal(fsList.status, 200, fsList.body);
    const root = JSON.parse(fsList.body).items.find((fs: { mountPoint: string }) => fs.mountPoint === "/");
    assert.equal(root.fileSystemType, "ext4");
    assert.ok(root.totalBytes > root.usedBytes && root.usedBytes > 0, fsList.body);
    await assert.rejects(
      send(endpoint, "GET", subresourcePath("default", NAME, "userlist"), undefined),
      /certificate required/,
      "a caller without virt-api's certificate is refused at the handshake",
    );
  });

  test("when the agent stops: AgentConnected and guestOSInfo go, the endpoints answer 409", async () => {
    assert.ok(domain);
    // Backgrounded with its output elsewhere, so guest-exec returns before the agent is gone.
    await agentExec(domain, ["/bin/sh", "-c", "(sleep 1; kill $(pidof qemu-ga)) >/dev/null 2>&1 &"]);
    const gone = await eventually(
      "AgentConnected to go",
      async () => {
        const vmi = await getVmi();
        const condition = vmi.status?.conditions?.find((c) => c.type === "AgentConnected");
        return condition === undefined ? vmi : undefined;
      },
      30_000,
    );
    assert.equal(gone.status?.guestOSInfo, undefined);
    assert.ok(agentEvents.includes(AgentLifecycleState.Disconnected), "libvirt sent the disconnect event");
    const refused = await ask("guestosinfo");
    assert.equal(refused.status, 409, refused.body);
    assert.match(JSON.parse(refused.body).message, /guest agent/);
  });

  test("the guestAgentPing liveness probe fails without the agent: the VMI's domain is stopped", async () => {
    const failed = await eventually(
      "the VMI to fail",
      async () => {
        const vmi = await getVmi();
        return vmi.status?.phase === "Failed" ? vmi : undefined;
      },
      30_000,
    );
    assert.equal(libvirt.findDomainByName(DOMAIN)?.isActive() ?? false, false, "the domain no longer runs");
    assert.ok(failed.status?.reason);
  });
});
