import assert from "node:assert/strict";
import { test } from "node:test";
import { parseForwardTarget } from "./forward-target.js";
import { parseForwardedPort, parseForwardedPorts } from "./forwarded-ports.js";

test("targets: type/name[/namespace], KubeVirt's kinds, dots belong to the name", () => {
  const cases: [string, object][] = [
    ["vmi/testvmi", { kind: "vmi", name: "testvmi" }],
    ["vmi/testvmi/default", { kind: "vmi", name: "testvmi", namespace: "default" }],
    ["vm/testvm", { kind: "vm", name: "testvm" }],
    ["VirtualMachines/testvm/ns", { kind: "vm", name: "testvm", namespace: "ns" }],
    ["vms/a", { kind: "vm", name: "a" }],
    ["virtualmachineinstance/a", { kind: "vmi", name: "a" }],
    ["vmis/a", { kind: "vmi", name: "a" }],
    // KubeVirt 1.7 dropped the old name.namespace reading: a dot is part of the name.
    ["vm/testvm.default", { kind: "vm", name: "testvm.default" }],
    [
      "vmi/testvmi.with.dots/default.with.dots",
      { kind: "vmi", name: "testvmi.with.dots", namespace: "default.with.dots" },
    ],
  ];
  for (const [argument, expected] of cases)
    assert.deepEqual(parseForwardTarget(argument), expected, argument);
});

test("bad targets are refused with KubeVirt's words and the syntax to use", () => {
  const cases: [string, string][] = [
    ["", "target cannot be empty"],
    ["testvmi", "target must contain type and name separated by '/'"],
    [".", "target must contain type and name separated by '/'"],
    ["vmi/testvmi/", "namespace cannot be empty"],
    ["//", "namespace cannot be empty"],
    ["vmi/testvmi/default/something", "target is not valid with more than two '/'"],
    ["invalid/testvmi", "unsupported resource type 'invalid'"],
    ["/", "unsupported resource type ''"],
    ["/.", "unsupported resource type ''"],
    ["vmi/", "name cannot be empty"],
  ];
  for (const [argument, message] of cases) {
    assert.throws(
      () => parseForwardTarget(argument),
      (error: Error) =>
        error.name === "CliError" && error.message.startsWith(message) && /type\/name/.test(error.message),
      JSON.stringify(argument),
    );
  }
});

test("ports: [protocol/]localPort[:targetPort], tcp by default, the target port the local one", () => {
  assert.deepEqual(parseForwardedPorts(["8080", "8080:80", "udp/5353:53", "TCP/0:22"]), [
    { protocol: "tcp", local: 8080, remote: 8080 },
    { protocol: "tcp", local: 8080, remote: 80 },
    { protocol: "udp", local: 5353, remote: 53 },
    { protocol: "tcp", local: 0, remote: 22 },
  ]);
});

test("bad ports are refused on one line that shows the syntax", () => {
  const cases: [string, RegExp][] = [
    ["", /missing local and\/or remote port: write \[protocol\/\]localPort\[:targetPort\]/],
    [":80", /missing local and\/or remote port/],
    ["1:2:3", /missing local and\/or remote port/],
    ["http", /invalid port 'http' in 'http': a port is a number from 0 to 65535/],
    ["8080:70000", /invalid port '70000'.*from 1 to 65535/],
    ["0", /local port 0 \(any free port\) needs a target port/],
    ["sctp/80", /unsupported protocol 'sctp' in 'sctp\/80': use tcp\/PORT or udp\/PORT/],
  ];
  for (const [argument, message] of cases) {
    assert.throws(() => parseForwardedPort(argument), message, JSON.stringify(argument));
  }
});
