/**
 * `dev-cluster up` end to end, as a user drives it: the CLI in a process of its own (one local
 * node with real pod networking, three simulated nodes), and the machine's real kubectl.
 * Runs as root (pod network namespaces). The tests run in order: each builds on the last.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { eventually } from "../harness/api-server-fixture.js";
import { rawRequest } from "../harness/https-client.js";
import {
  chooseNodeBridge,
  type DevClusterProcess,
  killProcessGroup,
  signalProcess,
  startDevClusterUp,
  waitForExit,
} from "./testing/dev-cluster-process.js";
import {
  isAlive,
  linkNames,
  networkNamespaces,
  nodeNftTables,
  podNetworkNames,
  processesOfNode,
  recordedPodUids,
  removeNodeLeftovers,
  unusedPodCidr,
} from "./testing/host-resources.js";
import {
  type DaemonSet,
  type Deployment,
  type EndpointSlice,
  type Endpoints,
  isAvailable,
  isNodeReady,
  isReady,
  type List,
  type Node,
  type Pod,
  type Service,
} from "./testing/kinds.js";
import { Kubectl } from "./testing/kubectl.js";
import {
  crashingPod,
  everyNodeDaemonSet,
  imageMap,
  serverPort,
  unschedulablePod,
  webDeployment,
  webNodePortService,
  webService,
} from "./testing/manifests.js";
import {
  apiServerOf,
  httpGet,
  jwtClaims,
  serverIdentity,
  serviceAccountTokenOf,
  tamperedToken,
} from "./testing/pod-access.js";

const httpServerProgram = fileURLToPath(new URL("../programs/http-test-server.js", import.meta.url));
const simulatedNodes = ["sim-node-0", "sim-node-1", "sim-node-2"];

describe("dev-cluster up with kubectl", { timeout: 180_000 }, () => {
  const nodeName = `e2e-node-${process.pid}`;
  const podCidr = unusedPodCidr();
  const podPrefix = podCidr.replace(/0\/24$/, "");
  // A range of its own: the node's route to it must not meet another cluster's.
  const serviceCidr = podCidr.replace(/^10\.250\./, "10.253.");
  let tmp = "";
  let dataDir = "";
  let bridge = "kvts0";
  let bridgeIsOurs = false;
  let upArgs: string[] = [];
  let cluster: DevClusterProcess | undefined;
  let kubectl: Kubectl;
  /** What earlier tests learnt and later ones check. */
  const seen = { podUids: new Set<string>(), webPods: [] as Pod[], tokenOfFirstWebPod: "" };

  const getPods = async (selector?: string): Promise<Pod[]> => {
    const pods = (await kubectl.json<List<Pod>>(["pods", ...(selector ? ["-l", selector] : [])])).items;
    for (const pod of pods) seen.podUids.add(pod.metadata.uid);
    return pods;
  };
  const getPod = (name: string) => kubectl.json<Pod>(["pod", name]);
  const startCluster = async (): Promise<DevClusterProcess> => {
    cluster = await startDevClusterUp(upArgs, join(tmp, "dev-cluster.log"));
    return cluster;
  };
  /** The web pods once there are two, both Ready, on the local node. */
  const readyWebPods = () =>
    eventually("two ready web pods", async () => {
      const pods = await getPods("app=web");
      return pods.length === 2 && pods.every(isReady) ? pods : undefined;
    });
  /** The status of listing pods with `token` as the only credential (null: none). */
  const listPodsWith = async (token: string | null): Promise<number> => {
    const server = apiServerOf(join(tmp, "kubeconfig"));
    return (await rawRequest(server, "GET", "/api/v1/namespaces/default/pods", { token })).status;
  };
  const endpointIps = async (): Promise<string[]> => {
    const endpoints = await kubectl.json<Endpoints>(["endpoints", "web"]);
    return (endpoints.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip)).sort();
  };

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pods get network namespaces");
    tmp = await mkdtemp(join(tmpdir(), "kubevirt-ts-dev-cluster-up-"));
    dataDir = join(tmp, "data");
    const kubeconfig = join(tmp, "kubeconfig");
    kubectl = new Kubectl(kubeconfig, join(tmp, "kubectl-cache"));
    const imageMapPath = join(tmp, "images.json");
    await writeFile(imageMapPath, imageMap(httpServerProgram));
    const choice = await chooseNodeBridge();
    bridge = choice.bridge;
    bridgeIsOurs = true;
    upArgs = [
      ...["--data-dir", dataDir, "--port", "0", "--kubeconfig", kubeconfig],
      ...["--node-name", nodeName, "--simulated-nodes", "3", "--pod-cidr", podCidr],
      ...["--service-cidr", serviceCidr],
      ...["--image-map", imageMapPath, ...choice.upArgs],
    ];
    await startCluster();
  });

  after(async () => {
    if (cluster?.running()) {
      killProcessGroup(cluster);
      await waitForExit(cluster, 5000).catch(() => undefined);
    }
    if (tmp === "") return;
    const removed = removeNodeLeftovers({
      nodeName,
      dataDir,
      bridge,
      podUids: new Set([...seen.podUids, ...recordedPodUids(join(dataDir, "node-agent"))]),
      removeBridge: bridgeIsOurs,
    });
    if (removed.length > 0) process.stderr.write(`dev-cluster-up test cleaned up: ${removed.join(", ")}\n`);
    await rm(tmp, { recursive: true, force: true });
  });

  test("the local node and three simulated nodes are Ready", async () => {
    const nodes = await eventually("four ready nodes", async () => {
      const ready = (await kubectl.json<List<Node>>(["nodes"])).items.filter(isNodeReady);
      return ready.length === 4 ? ready.map((n) => n.metadata.name).sort() : undefined;
    });
    assert.deepEqual(nodes, [nodeName, ...simulatedNodes].sort());
  });

  test("a Deployment of two servers on one port rolls out and both answer at their pod IPs", async () => {
    await kubectl.apply(webDeployment(nodeName));
    const rollout = await kubectl.ok(["rollout", "status", "deployment/web", "--timeout=60s"]);
    assert.match(rollout, /deployment "web" successfully rolled out/);
    const deployment = await kubectl.json<Deployment>(["deployment", "web"]);
    assert.equal(deployment.status.availableReplicas, 2);
    assert.ok(isAvailable(deployment), "the Deployment is Available");
    const pods = await readyWebPods();
    const ips = pods.map((pod) => pod.status.podIP ?? "");
    assert.notEqual(ips[0], ips[1], "each replica has an address of its own");
    for (const pod of pods) {
      assert.equal(pod.spec.nodeName, nodeName);
      assert.ok(pod.status.podIP?.startsWith(podPrefix), `${pod.status.podIP} is in ${podCidr}`);
      const identity = await serverIdentity(pod.status.podIP ?? "", serverPort);
      assert.deepEqual([identity.pod, identity.ip], [pod.metadata.name, pod.status.podIP]);
    }
    seen.webPods = pods;
  });

  test("a crashing container goes to CrashLoopBackOff", async () => {
    await kubectl.apply(crashingPod(nodeName));
    const status = await eventually("crasher in CrashLoopBackOff", async () => {
      const container = (await getPod("crasher")).status.containerStatuses?.[0];
      return container?.state?.waiting?.reason === "CrashLoopBackOff" ? container : undefined;
    });
    assert.equal(status.restartCount, 1, "the first restart is immediate, the second waits");
    assert.match(
      status.state?.waiting?.message ?? "",
      /^back-off 10s restarting failed container=crasher pod=crasher_default\(/,
    );
    assert.equal(status.lastState?.terminated?.exitCode, 3);
    assert.match(await kubectl.ok(["get", "pod", "crasher"]), /crasher\s+0\/1\s+CrashLoopBackOff\s+1 /);
  });

  test("a Service's Endpoints and EndpointSlice list both ready pod IPs", async () => {
    await kubectl.apply(webService);
    const expected = seen.webPods.map((pod) => pod.status.podIP ?? "").sort();
    await eventually("Endpoints of web", async () => {
      const ips = await endpointIps();
      return ips.join() === expected.join() ? ips : undefined;
    });
    const slices = await kubectl.json<List<EndpointSlice>>([
      "endpointslices",
      ...["-l", "kubernetes.io/service-name=web"],
    ]);
    const ready = slices.items.flatMap((s) => s.endpoints ?? []).filter((e) => e.conditions?.ready);
    assert.deepEqual(ready.flatMap((e) => e.addresses).sort(), expected);
  });

  test("a pod reaches a Service by name, the node by ClusterIP and NodePort; unknown names and addresses fail at once", async () => {
    await kubectl.apply(webNodePortService);
    const service = await kubectl.json<Service>(["service", "web-np"]);
    const clusterIP = service.spec.clusterIP ?? "";
    const nodePort = service.spec.ports?.[0]?.nodePort ?? 0;
    assert.ok(clusterIP.startsWith(serviceCidr.replace(/0\/24$/, "")), `${clusterIP} is in ${serviceCidr}`);
    const webPods = new Set(seen.webPods.map((pod) => pod.metadata.name));
    const answeredBy = new Set<string>();
    await eventually("both web pods answering at the ClusterIP", async () => {
      answeredBy.add((await serverIdentity(clusterIP, 8000)).pod);
      return answeredBy.size === 2 ? true : undefined;
    });
    assert.deepEqual([...answeredBy].sort(), [...webPods].sort());
    const node = await kubectl.json<Node>(["node", nodeName]);
    const internalIP = node.status.addresses?.find((address) => address.type === "InternalIP")?.address ?? "";
    assert.ok(
      webPods.has((await serverIdentity(internalIP, nodePort)).pod),
      "the NodePort answers on the node's address",
    );

    const fromPod = async <T>(path: string): Promise<T> => {
      const answer = await httpGet(seen.webPods[0]?.status.podIP ?? "", serverPort, path, 10_000);
      return JSON.parse(answer.body) as T;
    };
    for (const name of ["web-np.default.svc.cluster.local", "web-np"]) {
      const url = encodeURIComponent(`http://${name}:8000/`);
      const fetched = await fromPod<{ status?: number; body?: string; error?: string }>(`/fetch?url=${url}`);
      assert.equal(fetched.status, 200, `a pod fetches http://${name}:8000/: ${JSON.stringify(fetched)}`);
      assert.ok(webPods.has(JSON.parse(fetched.body ?? "{}").pod));
    }
    const kubernetes = await kubectl.json<Service>(["service", "kubernetes"]);
    assert.deepEqual(await fromPod("/resolve?name=kubernetes.default"), {
      addresses: [kubernetes.spec.clusterIP],
    });
    assert.deepEqual(await fromPod("/resolve?name=nothing-here.default.svc.cluster.local"), {
      error: "ENOTFOUND",
    });
    const unknown = serviceCidr.replace(/0\/24$/, "250");
    assert.deepEqual(await fromPod(`/fetch?url=${encodeURIComponent(`http://${unknown}/`)}`), {
      error: "ECONNREFUSED",
    });
    await assert.rejects(httpGet(unknown, 80, "/"), /ECONNREFUSED/, "the node is refused too");
  });

  test("a DaemonSet runs one pod on the local node and on each simulated node", async () => {
    await kubectl.apply(everyNodeDaemonSet);
    const ds = await eventually("the DaemonSet ready on four nodes", async () => {
      const { status } = await kubectl.json<DaemonSet>(["daemonset", "everywhere"]);
      return status.numberReady === 4 ? status : undefined;
    });
    assert.equal(ds.desiredNumberScheduled, 4);
    assert.equal(ds.currentNumberScheduled, 4);
    const pods = await getPods("app=everywhere");
    assert.deepEqual(pods.map((pod) => pod.spec.nodeName).sort(), [nodeName, ...simulatedNodes].sort());
    const local = pods.find((pod) => pod.spec.nodeName === nodeName);
    assert.ok(local?.status.podIP?.startsWith(podPrefix), "the local pod has an address of the pod CIDR");
    const sleepers = processesOfNode(nodeName, dataDir).filter((p) => p.argv[0] === "sleep");
    assert.equal(sleepers.length, 1, "only the local node's pod has a process");
  });

  test("kubectl logs shows a pod's output", async () => {
    const pod = seen.webPods[0];
    assert.ok(pod);
    await httpGet(pod.status.podIP ?? "", serverPort, "/hello-from-the-test");
    const logs = await eventually("the request in the log", async () => {
      const text = await kubectl.ok(["logs", pod.metadata.name]);
      return text.includes("GET /hello-from-the-test") ? text : undefined;
    });
    assert.match(logs, new RegExp(`^listening on ${pod.status.podIP}:${serverPort}$`, "m"));
  });

  test("a pod's service-account token authenticates as its service account", async () => {
    const pod = seen.webPods[0];
    assert.ok(pod);
    const { pid } = await serverIdentity(pod.status.podIP ?? "", serverPort);
    const token = serviceAccountTokenOf(pid);
    const claims = jwtClaims(token);
    assert.equal(claims.sub, "system:serviceaccount:default:default");
    assert.deepEqual(claims["kubernetes.io"]?.pod, { name: pod.metadata.name, uid: pod.metadata.uid });
    // Authenticated but bound to no role: forbidden, until a RoleBinding grants the account `view`.
    assert.equal(await listPodsWith(token), 403);
    await kubectl.ok([
      "create",
      "rolebinding",
      "default-views",
      "--clusterrole=view",
      "--serviceaccount=default:default",
    ]);
    assert.equal(await listPodsWith(token), 200);
    assert.equal(await listPodsWith(tamperedToken(token)), 401);
    assert.equal(await listPodsWith(null), 401);
    // The pod reaches the API server too, from its own network namespace, with the CA it was given.
    const fromPod = await httpGet(pod.status.podIP ?? "", serverPort, "/api");
    assert.deepEqual(JSON.parse(fromPod.body), { status: 200 });
    seen.tokenOfFirstWebPod = token;
  });

  test("a deleted pod is replaced, its process ends and its token stops working", async () => {
    const [victim, survivor] = seen.webPods;
    assert.ok(victim && survivor);
    const { pid } = await serverIdentity(victim.status.podIP ?? "", serverPort);
    await kubectl.ok(["delete", "pod", victim.metadata.name, "--timeout=30s"]);
    assert.equal(isAlive(pid), false, "the deleted pod's process has ended");
    const netns = podNetworkNames(bridge, victim.metadata.uid).netns;
    assert.ok(!networkNamespaces().includes(netns), "the deleted pod's namespace is gone");
    const pods = await readyWebPods();
    const replacement = pods.find((pod) => pod.metadata.name !== survivor.metadata.name);
    assert.ok(replacement && replacement.metadata.uid !== victim.metadata.uid);
    assert.equal(
      (await serverIdentity(replacement.status.podIP ?? "", serverPort)).pod,
      replacement.metadata.name,
    );
    const expected = pods.map((pod) => pod.status.podIP ?? "").sort();
    await eventually("Endpoints follow the replacement", async () =>
      (await endpointIps()).join() === expected.join() ? true : undefined,
    );
    assert.equal(
      await listPodsWith(seen.tokenOfFirstWebPod),
      401,
      "a token bound to a deleted pod is rejected",
    );
    seen.webPods = pods;
  });

  test("an unschedulable pod says why in kubectl describe", async () => {
    await kubectl.apply(unschedulablePod);
    const condition = await eventually("PodScheduled=False", async () =>
      (await getPod("nowhere")).status.conditions?.find(
        (c) => c.type === "PodScheduled" && c.status === "False",
      ),
    );
    assert.equal(condition.reason, "Unschedulable");
    const described = await eventually("a FailedScheduling event", async () => {
      const text = await kubectl.ok(["describe", "pod", "nowhere"]);
      return /FailedScheduling/.test(text) ? text : undefined;
    });
    assert.match(
      described,
      /0\/4 nodes are available: 4 node\(s\) didn't match Pod's node affinity\/selector/,
    );
  });

  test("the crash-loop back-off grows with each restart", async () => {
    const status = await eventually(
      "crasher's second back-off",
      async () => {
        const container = (await getPod("crasher")).status.containerStatuses?.[0];
        const waiting = container?.state?.waiting;
        return container && container.restartCount >= 2 && waiting?.reason === "CrashLoopBackOff"
          ? container
          : undefined;
      },
      30_000,
    );
    // kubelet's back-off doubles from 10 s: 10 s after the first restart, 20 s after the second, ...
    const expected = `${10 * 2 ** (status.restartCount - 1)}s`;
    assert.match(
      status.state?.waiting?.message ?? "",
      new RegExp(`^back-off ${expected} restarting failed container=crasher `),
    );
    assert.match(await kubectl.ok(["logs", "crasher", "--previous"]), /crashing on purpose/);
  });

  test("after kill -9, dev-cluster up on the same data dir adopts everything and duplicates nothing", async () => {
    const before = await localState();
    assert.ok(cluster);
    signalProcess(cluster, "SIGKILL");
    assert.equal((await waitForExit(cluster, 5000)).signal, "SIGKILL");
    await startCluster();
    const rollout = await kubectl.ok(["rollout", "status", "deployment/web", "--timeout=30s"]);
    assert.match(rollout, /successfully rolled out/);
    await eventually("the DaemonSet ready again", async () => {
      const { status } = await kubectl.json<DaemonSet>(["daemonset", "everywhere"]);
      return status.numberReady === 4 ? true : undefined;
    });
    // Converged means it stays so: look twice, a while apart, for late duplicates.
    const settling = await localState();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const afterRestart = await localState();
    assert.deepEqual(settling, afterRestart, "nothing changed while the restarted cluster settled");
    assert.deepEqual(afterRestart.pods, before.pods, "the same pods, with the same uids");
    assert.deepEqual(afterRestart.serverPids, before.serverPids, "the servers' processes were adopted");
    assert.deepEqual(
      afterRestart.answeringPids,
      before.serverPids,
      "the same processes answer at the pod IPs",
    );
    assert.deepEqual(afterRestart.sleeperPids, before.sleeperPids, "the DaemonSet pod's process was adopted");
    assert.equal(afterRestart.serverPids.length, 2, "no server runs twice");
    assert.equal(afterRestart.sleeperPids.length, 1, "no DaemonSet process runs twice");
    assert.equal(afterRestart.replicaSets, 1);
    const deployment = await kubectl.json<Deployment>(["deployment", "web"]);
    assert.equal(deployment.status.availableReplicas, 2);
    assert.ok(isAvailable(deployment), "the Deployment is Available");
    // The adopted pods' credentials and their way to the API server still work.
    const [pid] = afterRestart.serverPids;
    assert.ok(pid);
    assert.equal(await listPodsWith(serviceAccountTokenOf(pid)), 200, "an adopted pod's token still works");
    for (const pod of await getPods("app=web")) {
      const fromPod = await httpGet(pod.status.podIP ?? "", serverPort, "/api");
      assert.deepEqual(
        JSON.parse(fromPod.body),
        { status: 200 },
        `${pod.metadata.name} reaches the API server`,
      );
    }
  });

  test("SIGTERM stops it with exit 0 and leaves no process, namespace, veth, bridge or Service rule", async () => {
    assert.ok(cluster);
    const uids = new Set([...seen.podUids, ...recordedPodUids(join(dataDir, "node-agent"))]);
    signalProcess(cluster, "SIGTERM");
    assert.deepEqual(await waitForExit(cluster, 30_000), { code: 0, signal: null });
    await eventually(
      "the pods' processes gone",
      () => (processesOfNode(nodeName, dataDir).length === 0 ? true : undefined),
      5000,
    );
    // The kernel destroys a veth whose peer's namespace went asynchronously: give it a moment.
    const leftovers = () => {
      const namespaces = new Set(networkNamespaces());
      const links = new Set(linkNames());
      return [...uids].flatMap((uid) => {
        const names = podNetworkNames(bridge, uid);
        return [names.netns, names.veth].filter((name) => namespaces.has(name) || links.has(name));
      });
    };
    await eventually(
      "the pods' namespaces and veths gone",
      () => (leftovers().length === 0 ? true : undefined),
      10_000,
    ).catch(() => undefined);
    assert.deepEqual(leftovers(), [], "every pod's namespace and veth was removed");
    assert.ok(!new Set(linkNames()).has(bridge), `the bridge ${bridge} was removed`);
    assert.ok(!nodeNftTables().includes(`kubevirt-ts-${bridge}`), "the node's Service rules were removed");
    const etcLeft = [...uids].filter((uid) => existsSync(`/etc/netns/${podNetworkNames(bridge, uid).netns}`));
    assert.deepEqual(etcLeft, [], "every pod's resolv.conf and hosts were removed");
  });

  /** The pods (name → uid) and the local containers' processes, to compare across a restart. */
  async function localState() {
    const pods = Object.fromEntries((await getPods()).map((pod) => [pod.metadata.name, pod.metadata.uid]));
    const processes = processesOfNode(nodeName, dataDir);
    const pidsOf = (match: (argv: string[]) => boolean) =>
      processes
        .filter((p) => match(p.argv))
        .map((p) => p.pid)
        .sort((a, b) => a - b);
    const replicaSets = (await kubectl.json<List<unknown>>(["replicasets", "-l", "app=web"])).items.length;
    const webPods = await getPods("app=web");
    const answers = await Promise.all(
      webPods.map((pod) => serverIdentity(pod.status.podIP ?? "", serverPort)),
    );
    return {
      pods,
      serverPids: pidsOf((argv) => argv[0] === process.execPath && argv[1] === httpServerProgram),
      sleeperPids: pidsOf((argv) => argv[0] === "sleep"),
      answeringPids: answers.map((answer) => answer.pid).sort((a, b) => a - b),
      replicaSets,
    };
  }
});
