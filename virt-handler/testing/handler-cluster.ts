// Test support: a dev API server with the kubevirt.io CRDs, a Node, a KubeVirt CR, and VMIs handed
// to the node the way virt-controller hands them over (phase Scheduled, status.nodeName, the
// kubevirt.io/nodeName label, a launcher pod bound to the node).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Frozen, KubeClient } from "../../runtime/index.js";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { kubeVirtKind, type Node, nodeKind, type Pod, podKind, type Vmi, vmiKind } from "../kinds.js";

const run = promisify(execFile);

export interface HandlerCluster {
  readonly api: TestApiServer;
  readonly client: KubeClient;
  readonly nodeName: string;
  /** A scratch directory for state dirs and the image store; removed by close(). */
  readonly workDir: string;
  close(): Promise<void>;
}

/** The repository root: the nearest directory above this module with a package.json. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("no package.json above the virt-handler tests");
    dir = parent;
  }
  return dir;
}

export async function startHandlerCluster(): Promise<HandlerCluster> {
  const api = await startTestApiServer();
  const applied = await api.kubectl(["apply", "-f", join(repositoryRoot(), "crds")]);
  if (applied.code !== 0) throw new Error(`cannot apply the CRDs: ${applied.stderr}`);
  const client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "handler-test" });
  const nodeName = `node-${randomBytes(3).toString("hex")}`;
  await client.resource(nodeKind).create({ metadata: { name: nodeName } } as Node);
  await eventually("the VMI CRD to be served", async () => {
    await client.resource(vmiKind).list({ namespace: "default" });
    return true;
  });
  const workDir = await mkdtemp(join(tmpdir(), "virt-handler-test-"));
  return {
    api,
    client,
    nodeName,
    workDir,
    async close() {
      client.close();
      await api.close();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Creates (or replaces the configuration of) the KubeVirt CR in namespace "kubevirt". */
export async function setUseEmulation(cluster: HandlerCluster, useEmulation: boolean): Promise<void> {
  const kubevirts = cluster.client.resource(kubeVirtKind);
  const spec = { configuration: { developerConfiguration: { useEmulation } } };
  try {
    await kubevirts.mergePatch({ namespace: "kubevirt", name: "kubevirt" }, { spec });
  } catch {
    await cluster.api.kubectl(["create", "namespace", "kubevirt"]);
    await kubevirts.create({ metadata: { name: "kubevirt", namespace: "kubevirt" }, spec });
  }
}

/**
 * A local image store with one image, `localhost/<name>:latest`, whose disk is an empty qcow2
 * (enough for libvirt's test driver, which runs nothing).
 */
export async function fakeImageStore(dir: string, name: string): Promise<string> {
  const imageDir = join(dir, `${name}:latest`);
  await mkdir(join(imageDir, "rootfs", "disk"), { recursive: true });
  await run("qemu-img", ["create", "-q", "-f", "qcow2", join(imageDir, "rootfs/disk/disk.qcow2"), "16M"]);
  const manifest = {
    schemaVersion: 1,
    reference: `localhost/${name}:latest`,
    digest: "sha256:0",
    created: new Date().toISOString(),
    disk: { path: "/disk/disk.qcow2", format: "qcow2" },
  };
  await writeFile(join(imageDir, "manifest.json"), JSON.stringify(manifest));
  return dir;
}

export interface ScheduledVmiOptions {
  readonly name: string;
  readonly namespace?: string;
  readonly image: string;
  readonly gracePeriodSeconds?: number;
  /** Replaces the spec's domain (memory, devices, firmware). */
  readonly domain?: Record<string, unknown>;
  /** Replaces the spec's volumes (default: one containerDisk "rootdisk" of `image`). */
  readonly volumes?: readonly Record<string, unknown>[];
  /** More spec fields (probes, say). */
  readonly spec?: Record<string, unknown>;
}

/**
 * A VMI as virt-controller leaves it for the node: phase Scheduled, with its launcher pod. As
 * virt-controller does, the VMI is handed to the node (its `kubevirt.io/nodeName` label) only once
 * the pod exists: a handler that saw the VMI first could take the pod for gone. The returned VMI is
 * the handed-over one (count the handler's writes from its resourceVersion).
 */
export async function createScheduledVmi(
  cluster: HandlerCluster,
  options: ScheduledVmiOptions,
): Promise<{ vmi: Vmi; pod: Pod }> {
  const namespace = options.namespace ?? "default";
  const vmi = await cluster.client.resource(vmiKind).create({
    metadata: {
      name: options.name,
      namespace,
      finalizers: ["kubevirt.io/foregroundDeleteVirtualMachine"],
    },
    spec: {
      domain: options.domain ?? {
        resources: { requests: { memory: "64Mi" } },
        devices: {
          disks: [{ name: "rootdisk", disk: { bus: "virtio" } }],
          // No NIC: no launcher process runs in these tests, so there is no pod network to join.
          interfaces: [],
          autoattachPodInterface: false,
        },
      },
      volumes: options.volumes ?? [{ name: "rootdisk", containerDisk: { image: options.image } }],
      terminationGracePeriodSeconds: options.gracePeriodSeconds ?? 5,
      ...options.spec,
    },
    status: { phase: "Scheduled", nodeName: cluster.nodeName },
  } as unknown as Vmi);
  const pod = await cluster.client.resource(podKind).create({
    metadata: {
      name: `virt-launcher-${options.name}-${randomBytes(3).toString("hex")}`,
      namespace,
      labels: { "kubevirt.io": "virt-launcher", "kubevirt.io/created-by": vmi.metadata?.uid ?? "" },
    },
    spec: { nodeName: cluster.nodeName, containers: [{ name: "compute", image: "localhost/launcher" }] },
  } as unknown as Pod);
  const handedOver = await cluster.client
    .resource(vmiKind)
    .mergePatch(
      { namespace, name: options.name },
      { metadata: { labels: { "kubevirt.io/nodeName": cluster.nodeName } } },
    );
  return { vmi: handedOver as Vmi, pod };
}

/** Removes what virt-controller would (its finalizer), so that a deleted VMI can go away. */
export async function dropControllerFinalizer(cluster: HandlerCluster, vmi: Frozen<Vmi>): Promise<void> {
  const ref = { namespace: vmi.metadata?.namespace ?? "default", name: vmi.metadata?.name ?? "" };
  const vmis = cluster.client.resource(vmiKind);
  await eventually("the controller's finalizer to be dropped", async () => {
    const current = await vmis.get(ref);
    const finalizers = (current.metadata?.finalizers ?? []).filter(
      (name) => name !== "kubevirt.io/foregroundDeleteVirtualMachine",
    );
    await vmis.update({ ...current, metadata: { ...current.metadata, finalizers } });
    return true;
  });
}

/** Counts the writes to one VMI (MODIFIED watch events) from now on, or after `fromResourceVersion`. */
export async function countVmiWrites(
  cluster: HandlerCluster,
  namespace: string,
  name: string,
  fromResourceVersion?: string,
): Promise<{ writes: () => Vmi[]; stop: () => void }> {
  const abort = new AbortController();
  const seen: Vmi[] = [];
  const vmis = cluster.client.resource(vmiKind);
  const resourceVersion = fromResourceVersion ?? (await vmis.list({ namespace })).resourceVersion;
  const events = await vmis.watch({
    namespace,
    resourceVersion,
    fieldSelector: `metadata.name=${name}`,
    signal: abort.signal,
  });
  void (async () => {
    try {
      for await (const event of events) {
        if (event.type === "MODIFIED") seen.push(event.object as Vmi);
      }
    } catch {
      // aborted
    }
  })();
  return { writes: () => seen, stop: () => abort.abort() };
}

export { eventually };
