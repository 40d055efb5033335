import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CachedPod } from "../kinds.js";
import { podHostsFile, podResolvConf } from "./pod-dns.js";

const cluster = { nameservers: ["10.96.0.10"], domain: "cluster.local" };
const node = "nameserver 192.0.2.53\nsearch corp.example\noptions edns0\n";
const pod = (spec: Record<string, unknown> = {}): CachedPod =>
  ({
    metadata: { namespace: "apps", name: "web-0" },
    spec: { containers: [], ...spec },
  }) as unknown as CachedPod;

describe("a pod's resolv.conf and hosts, as kubelet writes them", () => {
  test("ClusterFirst: the cluster DNS, the namespace's search path before the node's, ndots:5", () => {
    assert.equal(
      podResolvConf(pod(), cluster, node),
      "search apps.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.96.0.10\noptions ndots:5\n",
    );
  });

  test("Default reads the node's file; None only dnsConfig; dnsConfig merges into ClusterFirst", () => {
    assert.equal(podResolvConf(pod({ dnsPolicy: "Default" }), cluster, node), undefined);
    assert.equal(
      podResolvConf(
        pod({ dnsPolicy: "None", dnsConfig: { nameservers: ["1.2.3.4"], searches: ["a.b"] } }),
        cluster,
        node,
      ),
      "search a.b\nnameserver 1.2.3.4\n",
    );
    const merged = podResolvConf(
      pod({
        dnsConfig: { nameservers: ["10.0.0.2"], options: [{ name: "ndots", value: "2" }, { name: "edns0" }] },
      }),
      cluster,
      node,
    );
    assert.match(merged ?? "", /^nameserver 10\.96\.0\.10\nnameserver 10\.0\.0\.2\noptions ndots:2 edns0$/m);
  });

  test("without a cluster DNS, ClusterFirst falls back to the node's file", () => {
    assert.equal(podResolvConf(pod(), undefined, node), undefined);
  });

  test("hosts names the pod's address, with its FQDN under a subdomain, then hostAliases", () => {
    const hosts = podHostsFile(
      pod({ hostname: "db", subdomain: "vms", hostAliases: [{ ip: "10.1.1.1", hostnames: ["a", "b"] }] }),
      "10.244.0.7",
      "cluster.local",
    );
    assert.match(hosts, /^10\.244\.0\.7\tdb\.vms\.apps\.svc\.cluster\.local\tdb$/m);
    assert.match(hosts, /^10\.1\.1\.1\ta\tb$/m);
    assert.match(podHostsFile(pod(), "10.244.0.8", "cluster.local"), /^10\.244\.0\.8\tweb-0$/m);
  });
});
