// `virtctl expose` end to end: the compiled virtctl against the dev API server, the Service it
// creates read back with real kubectl.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { IService } from "kubernetes-models/v1/Service";
import { vmirsKind, vmKind } from "../../api/index.js";
import { createVmi, TEST_NAMESPACE, vmManifest } from "../../virt-api/testing/test-objects.js";
import { startVirtctlCluster, type VirtctlCluster } from "../testing/virtctl-cluster.js";

/** A guest with a masquerade interface on the pod network, listing `ports`. */
function networkedSpec(ports: { port: number; protocol?: string }[]) {
  const spec = vmManifest("template", "Halted").spec.template.spec;
  return {
    ...spec,
    domain: {
      ...spec?.domain,
      devices: {
        ...spec?.domain.devices,
        interfaces: [{ name: "default", masquerade: {}, ...(ports.length > 0 ? { ports } : {}) }],
      },
    },
    networks: [{ name: "default", pod: {} }],
  };
}

describe("virtctl expose", () => {
  let cluster: VirtctlCluster;

  before(async () => {
    cluster = await startVirtctlCluster();
  });
  after(() => cluster?.close());

  const service = async (name: string): Promise<IService> => {
    const shown = await cluster.kubectl(["get", "service", name, "-n", TEST_NAMESPACE, "-o", "json"]);
    assert.equal(shown.code, 0, shown.stderr);
    return JSON.parse(shown.stdout) as IService;
  };
  const assertNoService = async (name: string) => {
    const shown = await cluster.kubectl(["get", "service", name, "-n", TEST_NAMESPACE]);
    assert.notEqual(shown.code, 0, `service ${name} exists`);
  };
  /** stderr holds exactly one line, and it has `expected`. */
  const assertOneLineError = (result: { code: number; stderr: string }, expected: string) => {
    assert.equal(result.code, 1, `exit status; stderr: ${result.stderr}`);
    const lines = result.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, `one line: ${JSON.stringify(result.stderr)}`);
    assert.ok(lines[0]?.includes(expected), `"${lines[0]}" has "${expected}"`);
  };

  test("vmi --port --target-port --type NodePort: selects the VMI's id, owned by the VMI", async () => {
    const vmi = await createVmi(cluster.fixture.client, "web-vmi", "Running", { spec: networkedSpec([]) });
    const result = await cluster.run([
      "expose",
      "vmi",
      "web-vmi",
      "--name",
      "web-ssh",
      "--port",
      "2222",
      "--target-port",
      "22",
      "--type",
      "NodePort",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "Service web-ssh successfully created for vmi web-vmi\n");
    const created = await service("web-ssh");
    assert.equal(created.spec?.type, "NodePort");
    assert.deepEqual(created.spec?.selector, { "vmi.kubevirt.io/id": "web-vmi" });
    const [port] = created.spec?.ports ?? [];
    assert.deepEqual([port?.protocol, port?.port, port?.targetPort], ["TCP", 2222, 22]);
    assert.ok((port?.nodePort ?? 0) > 0, "a node port is allocated");
    assert.deepEqual(created.metadata?.ownerReferences, [
      {
        apiVersion: "kubevirt.io/v1",
        kind: "VirtualMachineInstance",
        name: "web-vmi",
        uid: vmi.metadata?.uid,
        controller: true,
        blockOwnerDeletion: false,
      },
    ]);
  });

  test("vm without --port: the template's interface ports become port-1, port-2; a long name's id is KubeVirt's", async () => {
    const name = `long-${"v".repeat(65)}`;
    const manifest = vmManifest(name, "Halted");
    const vm = await cluster.fixture.client.resource(vmKind).create({
      ...manifest,
      spec: {
        ...manifest.spec,
        template: {
          ...manifest.spec.template,
          spec: networkedSpec([{ port: 80 }, { port: 53, protocol: "UDP" }]),
        },
      },
    });
    const result = await cluster.run(["expose", "VirtualMachine", name, "--name", "long-vm-web"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `Service long-vm-web successfully created for virtualmachine ${name}\n`);
    const created = await service("long-vm-web");
    assert.equal(created.spec?.type, "ClusterIP");
    // The first 54 characters, '-', and 8 hex of `printf %s NAME | sha1sum`.
    assert.deepEqual(created.spec?.selector, { "vmi.kubevirt.io/id": `${name.slice(0, 54)}-19f88068` });
    assert.deepEqual(
      created.spec?.ports?.map((port) => [port.name, port.protocol, port.port, port.targetPort]),
      [
        ["port-1", "TCP", 80, 80],
        ["port-2", "UDP", 53, 53],
      ],
    );
    const [owner] = created.metadata?.ownerReferences ?? [];
    assert.deepEqual(
      [owner?.kind, owner?.name, owner?.uid, owner?.controller, owner?.blockOwnerDeletion],
      ["VirtualMachine", name, vm.metadata?.uid, true, false],
    );
  });

  test("vmirs: the Service selects the replica set's matchLabels; expressions are refused", async () => {
    const vmirs = cluster.fixture.client.resource(vmirsKind);
    const replicaSet = (name: string, selector: object) =>
      vmirs.create({
        metadata: { name, namespace: TEST_NAMESPACE },
        spec: {
          replicas: 0,
          selector,
          template: { metadata: { labels: { app: name } }, spec: networkedSpec([{ port: 80 }]) },
        },
      } as Parameters<typeof vmirs.create>[0]);
    const set = await replicaSet("web-rs", { matchLabels: { app: "web-rs" } });
    const result = await cluster.run(["expose", "vmirs", "web-rs", "--name", "web-rs", "--port", "8080"]);
    assert.equal(result.code, 0, result.stderr);
    const created = await service("web-rs");
    assert.deepEqual(created.spec?.selector, { app: "web-rs" });
    assert.deepEqual(
      created.spec?.ports?.map((port) => [port.port, port.targetPort]),
      [[8080, 8080]],
    );
    const [owner] = created.metadata?.ownerReferences ?? [];
    assert.deepEqual([owner?.kind, owner?.uid], ["VirtualMachineInstanceReplicaSet", set.metadata?.uid]);

    await replicaSet("expr-rs", {
      matchLabels: { app: "expr-rs" },
      matchExpressions: [{ key: "tier", operator: "Exists" }],
    });
    assertOneLineError(
      await cluster.run(["expose", "vmirs", "expr-rs", "--name", "expr-rs", "--port", "80"]),
      "error: cannot expose VirtualMachineInstanceReplicaSet with match expressions",
    );
    await assertNoService("expr-rs");
  });

  test("no --port and no interface ports, ExternalName, a missing VMI, a taken name: one line each", async () => {
    await createVmi(cluster.fixture.client, "portless-vmi", "Running");
    assertOneLineError(
      await cluster.run(["expose", "vmi", "portless-vmi", "--name", "portless"]),
      "error: couldn't find port via --port flag or introspection",
    );
    await assertNoService("portless");
    assertOneLineError(
      await cluster.run([
        "expose",
        "vmi",
        "portless-vmi",
        "--name",
        "ext",
        "--port",
        "80",
        "--type",
        "ExternalName",
      ]),
      "error: type: ExternalName not supported",
    );
    await assertNoService("ext");
    assertOneLineError(
      await cluster.run(["expose", "vmi", "no-such-vmi", "--name", "none", "--port", "80"]),
      'error: error fetching VirtualMachineInstance: virtualmachineinstance "no-such-vmi" not found',
    );
    assertOneLineError(
      await cluster.run(["expose", "vmi", "portless-vmi", "--name", "web-ssh", "--port", "80"]),
      'error: service creation failed: services "web-ssh" already exists',
    );
    assertOneLineError(
      await cluster.run(["expose", "pod", "portless-vmi", "--name", "x", "--port", "80"]),
      "error: unsupported resource type: pod",
    );
  });
});
