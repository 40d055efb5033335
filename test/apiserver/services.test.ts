import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CoreV1Api, type V1Service } from "@kubernetes/client-node";
import { startTestApiServer, type TestApiServer } from "../harness/api-server-fixture.js";

const manifest = (targetPort: number, tier: string) => `apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {tier: ${tier}}
spec:
  selector: {app: web}
  ports:
    - {name: http, port: 80, targetPort: ${targetPort}}
`;

interface ServiceJson {
  metadata: { labels?: Record<string, string> };
  spec: {
    clusterIP?: string;
    clusterIPs?: string[];
    ports: { port: number; targetPort?: number; nodePort?: number }[];
  };
}

/** Whether `ip` is in 10.96.0.0/12. */
function inServiceRange(ip: string | undefined): boolean {
  const [a, b] = (ip ?? "").split(".").map(Number);
  return a === 10 && b !== undefined && b >= 96 && b < 112;
}

describe("Service cluster IPs and node ports", () => {
  let cluster: TestApiServer;
  const get = async (name: string): Promise<ServiceJson> => {
    const result = await cluster.kubectl(["get", "service", name, "-o", "json"]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as ServiceJson;
  };

  before(async () => {
    cluster = await startTestApiServer({ inMemory: false });
  });
  after(async () => cluster?.close());

  test("a Service gets a cluster IP and keeps it through apply, server-side apply and replace without one", async () => {
    const created = await cluster.kubectl(["apply", "-f", "-"], { input: manifest(8080, "one") });
    assert.equal(created.code, 0, created.stderr);
    const { spec } = await get("web");
    assert.ok(inServiceRange(spec.clusterIP), `clusterIP ${spec.clusterIP}`);
    assert.notEqual(spec.clusterIP, "10.96.0.1", "the kubernetes Service's address is reserved");
    assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);

    const steps: [string, string[], string][] = [
      ["client-side apply", ["apply", "-f", "-"], "two"],
      ["server-side apply", ["apply", "--server-side", "--force-conflicts", "-f", "-"], "three"],
      ["replace", ["replace", "-f", "-"], "four"],
    ];
    for (const [index, [what, args, tier]] of steps.entries()) {
      const result = await cluster.kubectl(args, { input: manifest(8081 + index, tier) });
      assert.equal(result.code, 0, `${what}: ${result.stderr}`);
      const changed = await get("web");
      assert.equal(changed.spec.clusterIP, spec.clusterIP, what);
      assert.deepEqual(changed.spec.clusterIPs, [spec.clusterIP], what);
      assert.equal(changed.metadata.labels?.tier, tier, `${what} applied the change`);
      assert.equal(changed.spec.ports[0]?.targetPort, 8081 + index, `${what} applied the change`);
    }
  });

  test("a changed cluster IP is refused as immutable", async () => {
    const result = await cluster.kubectl([
      "patch",
      "service",
      "web",
      "-p",
      '{"spec":{"clusterIP":"10.96.0.99"}}',
    ]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /spec.clusterIP: Invalid value: "10.96.0.99": field is immutable/);
  });

  test("Services created at the same time never share an address", async () => {
    const api = cluster.kubeConfig().makeApiClient(CoreV1Api);
    const body = (name: string): V1Service => ({
      metadata: { name },
      spec: { ports: [{ name: "p", port: 80 }] },
    });
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.createNamespacedService({ namespace: "default", body: body(`s${i}`) }),
      ),
    );
    const addresses = created.map((service) => service.spec?.clusterIP ?? "");
    const all = [...addresses, (await get("web")).spec.clusterIP, "10.96.0.1"];
    assert.equal(new Set(all).size, all.length, `duplicates in ${all.join(" ")}`);
    assert.ok(addresses.every(inServiceRange));
  });

  test("kubectl create service nodeport gets a node port; a requested one is checked", async () => {
    const created = await cluster.kubectl(["create", "service", "nodeport", "np", "--tcp=80:8080"]);
    assert.equal(created.code, 0, created.stderr);
    const nodePort = (await get("np")).spec.ports[0]?.nodePort ?? 0;
    assert.ok(nodePort >= 30000 && nodePort <= 32767, `nodePort ${nodePort}`);
    const clash = await cluster.kubectl([
      "create",
      "service",
      "nodeport",
      "np2",
      "--tcp=80:8080",
      `--node-port=${nodePort}`,
    ]);
    assert.notEqual(clash.code, 0);
    assert.match(
      clash.stderr,
      new RegExp(
        `spec.ports\\[0\\].nodePort: Invalid value: ${nodePort}: provided port is already allocated`,
      ),
    );
    const headless = await cluster.kubectl([
      "create",
      "service",
      "clusterip",
      "headless",
      "--clusterip=None",
    ]);
    assert.equal(headless.code, 0, headless.stderr);
    assert.deepEqual((await get("headless")).spec.clusterIPs, ["None"]);
  });

  test("after a restart, allocation knows the addresses already held", async () => {
    const before = (await get("web")).spec.clusterIP;
    await cluster.stop();
    await cluster.restart();
    const created = await cluster.kubectl(["create", "service", "clusterip", "after-restart", "--tcp=80"]);
    assert.equal(created.code, 0, created.stderr);
    const list = await cluster.kubectl(["get", "services", "-o", "jsonpath={.items[*].spec.clusterIP}"]);
    const addresses = list.stdout.split(" ").filter((ip) => ip !== "None");
    assert.equal(new Set(addresses).size, addresses.length, `duplicates in ${list.stdout}`);
    assert.equal((await get("web")).spec.clusterIP, before);
    const kubernetes = await cluster.kubectl([
      "get",
      "services",
      "-A",
      "--field-selector=metadata.name=kubernetes",
      "-o",
      "name",
    ]);
    assert.equal(kubernetes.stdout, "service/kubernetes\n", "the kubernetes Service is not made twice");
  });
});
