import assert from "node:assert/strict";
import { test } from "node:test";
import { serviceOptionsOf } from "./service-options.js";

const flags = { name: "svc", protocol: "TCP", type: "ClusterIP" };

test("values are case-insensitive and come out in the API's spelling", () => {
  const options = serviceOptionsOf({
    ...flags,
    port: 80,
    targetPort: "8080",
    protocol: "udp",
    type: "nodeport",
    ipFamily: "ipv6,ipv4",
  });
  assert.deepEqual(options.port, { protocol: "UDP", port: 80, targetPort: 8080 });
  assert.equal(options.type, "NodePort");
  assert.deepEqual(options.ipFamilies, ["IPv6", "IPv4"]);
  // Two families and no policy: KubeVirt's PreferDualStack.
  assert.equal(options.ipFamilyPolicy, "PreferDualStack");
});

test("a target port that is no number is a port name; no --port means the interface's ports", () => {
  assert.deepEqual(serviceOptionsOf({ ...flags, port: 80, targetPort: "http", portName: "web" }).port, {
    name: "web",
    protocol: "TCP",
    port: 80,
    targetPort: "http",
  });
  const withoutPort = serviceOptionsOf({ ...flags, targetPort: "8080" });
  assert.equal(withoutPort.port, undefined);
  assert.deepEqual(withoutPort.ipFamilies, []);
  assert.equal(withoutPort.ipFamilyPolicy, undefined);
});

test("refusals carry KubeVirt's words and what to pass instead", () => {
  const refused = (extra: object, message: RegExp) =>
    assert.throws(() => serviceOptionsOf({ ...flags, ...extra }), message);
  refused({ type: "ExternalName" }, /^CliError: type: ExternalName not supported; use --type ClusterIP/);
  refused({ type: "Ingress" }, /^CliError: unknown service type: Ingress; use --type/);
  refused({ protocol: "SCTP" }, /^CliError: unknown protocol: SCTP; use --protocol TCP or UDP$/);
  refused({ ipFamily: "IPv5" }, /^CliError: unknown IPFamily\/s: IPv5; use --ip-family IPv4, IPv6/);
  refused({ ipFamilyPolicy: "Any" }, /^CliError: unknown IPFamilyPolicy\/s: Any; use --ip-family-policy/);
});
