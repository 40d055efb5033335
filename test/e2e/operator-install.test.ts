/**
 * kubevirt-ts installed as a user installs KubeVirt: `npm start` applies deploy/kubevirt-operator.yaml
 * and deploy/kubevirt-cr.yaml with kubectl, and virt-operator, running as pods of the dev cluster,
 * installs the rest. Drives real kubectl against that stack: drift repair, an imageTag roll, an
 * operator killed mid-repair, the components' own RBAC, a second CR, and both uninstall strategies.
 * The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { serviceAccountTokenOf } from "../dev-cluster/testing/pod-access.js";
import type { Condition } from "./testing/kinds.js";
import { conditionOf } from "./testing/kinds.js";
import { type KubevirtStack, startKubevirtStack, stopKubevirtStack } from "./testing/kubevirt-stack.js";
import { componentPids, removeNodeLeftovers } from "./testing/node-processes.js";
import { pollUntil } from "./testing/poll.js";

interface KubeVirtObject {
  metadata: { name: string; creationTimestamp: string; finalizers?: string[]; deletionTimestamp?: string };
  spec: Record<string, unknown>;
  status?: {
    phase?: string;
    conditions?: (Condition & { lastTransitionTime?: string })[];
    observedKubeVirtVersion?: string;
    targetKubeVirtVersion?: string;
  };
}

interface Workload {
  metadata: { uid: string; generation?: number };
  spec: { replicas?: number; template: { spec: { containers: { image: string }[] } } };
  status?: Record<string, number | undefined>;
}

interface PodList {
  items: {
    metadata: { name: string; uid: string; deletionTimestamp?: string };
    spec: { serviceAccountName?: string; containers: { image: string }[] };
    status?: { phase?: string };
  }[];
}

const MANAGED = "app.kubernetes.io/managed-by=virt-operator";
/** Every kind the operator installs (and must remove). */
const MANAGED_KINDS =
  "customresourcedefinitions,serviceaccounts,clusterroles,clusterrolebindings,roles,rolebindings,priorityclasses,deployments,daemonsets,secrets,services,apiservices,mutatingwebhookconfigurations,validatingwebhookconfigurations";

describe("virt-operator installs, repairs, updates and removes kubevirt-ts", { timeout: 600_000 }, () => {
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  const kv = (name = "kubevirt") => kubectl.json<KubeVirtObject>(["-n", "kubevirt", "kubevirt", name]);
  const available = (object: KubeVirtObject) => conditionOf(object.status?.conditions, "Available");
  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const runningPods = async (component: string) => {
    const pods = await kubectl.json<PodList>(["pods", "-n", "kubevirt", "-l", `kubevirt.io=${component}`]);
    // A pod being deleted may still run its process: it is on its way out, not a replica.
    return pods.items.filter((pod) => pod.status?.phase === "Running" && !pod.metadata.deletionTimestamp);
  };
  /** Available again, at `version` when given. */
  const availableAgain = (what: string, version?: string) =>
    pollUntil(
      what,
      async () => {
        const object = await kv();
        if (available(object)?.status !== "True") return undefined;
        if (version && object.status?.observedKubeVirtVersion !== version) return undefined;
        return object;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-operator-"));
    stack = await startKubevirtStack(workDir, { tag: "op" });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
  });

  after(async () => {
    if (stack) {
      await stopKubevirtStack(stack);
      const removed = removeNodeLeftovers(stack);
      if (removed.length > 0)
        process.stderr.write(`operator-install cleanup removed: ${removed.join(", ")}\n`);
    }
    if (workDir !== "") await rm(workDir, { recursive: true, force: true });
  });

  test("npm start installs through the operator: Available within 60 s of the CR, every component a pod", async () => {
    const object = await availableAgain("the KubeVirt CR to be Available");
    assert.equal(object.status?.phase, "Deployed");
    assert.ok(object.metadata.finalizers?.includes("kubevirt.io/virtOperatorFinalizer"));
    const availableAt = Date.parse(available(object)?.lastTransitionTime ?? "");
    const took = availableAt - Date.parse(object.metadata.creationTimestamp);
    assert.ok(took >= 0 && took <= 60_000, `Available ${took} ms after the CR was created`);
    assert.equal((await runningPods("virt-operator")).length, 2, "two operator replicas");
    assert.equal((await runningPods("virt-controller")).length, 2, "two virt-controller replicas");
    assert.equal((await runningPods("virt-api")).length, 2, "two virt-api replicas");
    assert.equal((await runningPods("virt-handler")).length, 1, "a virt-handler on the node");
    const managed = await kubectl.ok(["get", MANAGED_KINDS, "-A", "-l", MANAGED, "-o", "name"]);
    for (const name of [
      "customresourcedefinition.apiextensions.k8s.io/virtualmachines.kubevirt.io",
      "deployment.apps/virt-controller",
      "daemonset.apps/virt-handler",
      "priorityclass.scheduling.k8s.io/kubevirt-cluster-critical",
      "deployment.apps/virt-api",
      "service/virt-api",
      "secret/kubevirt-ca",
      "secret/kubevirt-virt-api-certs",
      "apiservice.apiregistration.k8s.io/v1.subresources.kubevirt.io",
      "mutatingwebhookconfiguration.admissionregistration.k8s.io/virt-api-mutator",
      "validatingwebhookconfiguration.admissionregistration.k8s.io/virt-api-validator",
    ]) {
      assert.ok(managed.includes(name), `${name} is managed:\n${managed}`);
    }
    assert.ok(
      !managed.includes("kubevirts.kubevirt.io"),
      "the KubeVirt CRD belongs to the bundle, not the strategy",
    );
  });

  test("each component runs with its own service account and only the RBAC the operator gave it", async () => {
    const node = requireStack();
    const [handlerPid] = componentPids(node, "virt-handler");
    const [controllerPid] = componentPids(node, "virt-controller");
    assert.ok(handlerPid && controllerPid, "component processes found");
    const canI = async (token: string, ...args: string[]) =>
      (await kubectl.run(["--token", token, "auth", "can-i", ...args])).stdout.trim();
    const handler = serviceAccountTokenOf(handlerPid);
    const controller = serviceAccountTokenOf(controllerPid);
    assert.equal(await canI(handler, "update", "virtualmachineinstances", "-A"), "yes");
    assert.equal(await canI(handler, "create", "pods", "-n", "default"), "no");
    assert.equal(await canI(handler, "list", "secrets", "-A"), "no");
    assert.equal(await canI(controller, "create", "pods", "-n", "default"), "yes");
    assert.equal(await canI(controller, "delete", "nodes"), "no");
    assert.equal(await canI(controller, "create", "clusterroles"), "no");
    for (const component of ["virt-handler", "virt-controller"]) {
      for (const pod of await runningPods(component)) {
        assert.match(pod.spec.serviceAccountName ?? "", /^kubevirt-(handler|controller)$/);
      }
    }
  });

  test("a virt-controller Deployment scaled by hand goes back to two replicas", async () => {
    await kubectl.ok(["-n", "kubevirt", "scale", "deployment/virt-controller", "--replicas=4"]);
    await pollUntil(
      "virt-controller back at 2 replicas",
      async () => {
        const deployment = await kubectl.json<Workload>(["-n", "kubevirt", "deployment", "virt-controller"]);
        return deployment.spec.replicas === 2 ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
    await availableAgain("Available after the scale was undone");
  });

  test("a deleted virt-handler DaemonSet is restored, and its pod runs again", async () => {
    const before = await kubectl.json<Workload>(["-n", "kubevirt", "daemonset", "virt-handler"]);
    await kubectl.ok(["-n", "kubevirt", "delete", "daemonset", "virt-handler", "--wait=false"]);
    const restored = await pollUntil(
      "a new virt-handler DaemonSet",
      async () => {
        const result = await kubectl.run([
          "-n",
          "kubevirt",
          "get",
          "daemonset",
          "virt-handler",
          "-o",
          "json",
        ]);
        if (result.code !== 0) return undefined;
        const daemonSet = JSON.parse(result.stdout) as Workload;
        return daemonSet.metadata.uid !== before.metadata.uid ? daemonSet : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.ok(restored);
    await availableAgain("Available with the restored DaemonSet");
    assert.equal((await runningPods("virt-handler")).length, 1);
  });

  test("a changed imageTag rolls every component to the new images", async () => {
    await kubectl.ok([
      ...["-n", "kubevirt", "patch", "kubevirt", "kubevirt", "--type=merge"],
      ...["-p", JSON.stringify({ spec: { imageTag: "v0.1.1-rolled" } })],
    ]);
    const object = await availableAgain("Available at the new tag", "v0.1.1-rolled");
    assert.equal(object.status?.targetKubeVirtVersion, "v0.1.1-rolled");
    for (const component of ["virt-controller", "virt-handler"]) {
      const pods = await runningPods(component);
      assert.ok(pods.length > 0, `${component} runs`);
      for (const pod of pods) {
        assert.match(pod.spec.containers[0]?.image ?? "", /:v0\.1\.1-rolled$/, `${pod.metadata.name} rolled`);
      }
    }
    const crd = await kubectl.json<{ metadata: { annotations?: Record<string, string> } }>([
      "crd",
      "virtualmachines.kubevirt.io",
    ]);
    assert.equal(crd.metadata.annotations?.["kubevirt.io/install-strategy-version"], "v0.1.1-rolled");
    // The APIService is replaced, not applied (Kubernetes 1.20 cannot apply one): updated by the operator.
    const apiService = await kubectl.json<{
      metadata: {
        annotations?: Record<string, string>;
        managedFields?: { manager: string; operation: string }[];
      };
    }>(["apiservice", "v1.subresources.kubevirt.io", "--show-managed-fields"]);
    assert.equal(apiService.metadata.annotations?.["kubevirt.io/install-strategy-version"], "v0.1.1-rolled");
    assert.ok(
      apiService.metadata.managedFields?.some(
        (entry) => entry.manager === "virt-operator" && entry.operation === "Update",
      ),
      JSON.stringify(apiService.metadata.managedFields),
    );
  });

  test("the operator killed while it repairs: its restart converges, nothing duplicated", async () => {
    const node = requireStack();
    await kubectl.ok(["-n", "kubevirt", "delete", "deployment", "virt-controller", "--wait=false"]);
    await kubectl.ok(["-n", "kubevirt", "delete", "daemonset", "virt-handler", "--wait=false"]);
    for (const pid of componentPids(node, "virt-operator")) process.kill(pid, "SIGKILL");
    const managedNames = async () =>
      (await kubectl.ok(["get", "deployments,daemonsets", "-n", "kubevirt", "-l", MANAGED, "-o", "name"]))
        .trim()
        .split("\n")
        .sort();
    // The CR may still say Available from before the kill: wait for the workloads to be back
    // (or the deadline), then for Available, then count them.
    await pollUntil("the operator to recreate virt-controller and virt-handler", async () =>
      (await managedNames()).length >= 3 ? true : undefined,
    ).catch(() => undefined);
    await availableAgain("Available after the operators restarted");
    const names = (await managedNames()).join("\n");
    assert.deepEqual(names.trim().split("\n").sort(), [
      "daemonset.apps/virt-handler",
      "deployment.apps/virt-api",
      "deployment.apps/virt-controller",
    ]);
    await pollUntil("two virt-controller pods again", async () =>
      (await runningPods("virt-controller")).length === 2 ? true : undefined,
    );
  });

  test("a second KubeVirt CR is refused in its status, and deleting it removes nothing", async () => {
    const second = {
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "second", namespace: "kubevirt" },
      spec: {},
    };
    await kubectl.apply(JSON.stringify(second));
    const refused = await pollUntil("the second CR to be refused", async () => {
      const degraded = conditionOf((await kv("second")).status?.conditions, "Degraded");
      return degraded?.status === "True" ? degraded : undefined;
    });
    assert.match(refused.message ?? "", /kubevirt\/kubevirt|"kubevirt"|kubevirt /);
    assert.equal(
      (await kv("second")).metadata.finalizers?.includes("kubevirt.io/virtOperatorFinalizer") ?? false,
      false,
    );
    await kubectl.ok(["-n", "kubevirt", "delete", "kubevirt", "second", "--timeout=30s"]);
    assert.equal(available(await kv())?.status, "True");
    assert.equal((await runningPods("virt-handler")).length, 1);
  });

  test("deleting the CR while a VM exists is blocked, with the reason in its status", async () => {
    const vm = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachine",
      metadata: { name: "keeps-kubevirt", namespace: "default" },
      spec: {
        runStrategy: "Halted",
        template: { spec: { domain: { devices: {}, memory: { guest: "64Mi" } } } },
      },
    };
    await kubectl.apply(JSON.stringify(vm));
    await kubectl.ok(["-n", "kubevirt", "delete", "kubevirt", "kubevirt", "--wait=false"]);
    const blocked = await pollUntil("the uninstall to be blocked", async () => {
      const object = await kv();
      const said = object.status?.conditions?.find((c) => /VirtualMachine/.test(c.message ?? ""));
      return object.status?.phase === "Deleting" && said ? said : undefined;
    });
    assert.match(blocked.message ?? "", /RemoveWorkloads/);
    assert.equal((await runningPods("virt-handler")).length, 1, "nothing was removed");
    assert.ok(await kubectl.ok(["get", "vm", "-n", "default", "keeps-kubevirt", "-o", "name"]));
  });

  test("with RemoveWorkloads the VM goes, then every managed object, then the CR", async () => {
    await kubectl.ok([
      ...["-n", "kubevirt", "patch", "kubevirt", "kubevirt", "--type=merge"],
      ...["-p", JSON.stringify({ spec: { uninstallStrategy: "RemoveWorkloads" } })],
    ]);
    await pollUntil(
      "the KubeVirt CR to be gone",
      async () =>
        (await kubectl.run(["-n", "kubevirt", "get", "kubevirt", "kubevirt"])).code !== 0 ? true : undefined,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const left = await kubectl.ok(["get", MANAGED_KINDS, "-A", "-l", MANAGED, "-o", "name"]);
    assert.equal(left.trim(), "", `managed objects left:\n${left}`);
    const crds = await kubectl.ok(["get", "crd", "-o", "name"]);
    assert.ok(!crds.includes("virtualmachines.kubevirt.io"), "the VM CRD (and the VM with it) is gone");
    assert.ok(crds.includes("kubevirts.kubevirt.io"), "the operator bundle's CRD stays");
    await pollUntil("virt-handler and virt-controller pods to go", async () =>
      (await runningPods("virt-handler")).length + (await runningPods("virt-controller")).length === 0
        ? true
        : undefined,
    );
    assert.equal((await runningPods("virt-operator")).length, 2, "the operator itself stays");
  });
});
