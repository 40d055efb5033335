import assert from "node:assert/strict";
import { test } from "node:test";
import { Command } from "commander";
import { expandBooleanAssignments } from "../commands/boolean-assignments.js";
import {
  type LocalClientOptions,
  proxyCommandOption,
  scpArguments,
  shellWord,
  sshArguments,
} from "./ssh-command-line.js";
import { defaultUsername, globalFlagsOf } from "./ssh-flags.js";
import { parseScpLocations, parseSshTarget } from "./ssh-target.js";

const options: LocalClientOptions = {
  port: 22,
  localOptions: [],
  virtctl: ["/usr/bin/node", "/opt/virtctl/main.js"],
  globalFlags: [],
};
const target = { kind: "vmi" as const, name: "testvmi", namespace: "default" };

test("ssh: ProxyCommand is virtctl port-forward --stdio=true kind/name/namespace PORT; the host kind.name.namespace", () => {
  assert.deepEqual(sshArguments(target, { ...options, username: "root" }), [
    "-o",
    "ProxyCommand=/usr/bin/node /opt/virtctl/main.js port-forward --stdio=true vmi/testvmi/default 22",
    "root@vmi.testvmi.default",
  ]);
  assert.deepEqual(
    sshArguments(
      target,
      {
        ...options,
        port: 2222,
        identityFile: "/k/id",
        knownHosts: "/k/known",
        localOptions: ["-o StrictHostKeyChecking=no", "-v"],
        globalFlags: ["--kubeconfig=/home/j doe/kc", "--context=kind"],
      },
      "ls /",
    ),
    [
      "-o",
      "ProxyCommand=/usr/bin/node /opt/virtctl/main.js '--kubeconfig=/home/j doe/kc' --context=kind port-forward --stdio=true vmi/testvmi/default 2222",
      "-o",
      "UserKnownHostsFile=/k/known",
      "-o StrictHostKeyChecking=no",
      "-v",
      "-i",
      "/k/id",
      "vmi.testvmi.default",
      "ls /",
    ],
  );
});

test("scp: -r and -p, the remote side kind.name.namespace:path, in the direction asked", () => {
  const copy = { localPath: "./f", remotePath: "/tmp/f", recursive: true, preserve: true };
  const proxy = proxyCommandOption(target, options);
  assert.deepEqual(scpArguments(target, { ...options, username: "jdoe" }, { ...copy, toRemote: true }), [
    "-o",
    proxy,
    "-r",
    "-p",
    "./f",
    "jdoe@vmi.testvmi.default:/tmp/f",
  ]);
  assert.deepEqual(
    scpArguments(target, options, { ...copy, recursive: false, preserve: false, toRemote: false }),
    ["-o", proxy, "vmi.testvmi.default:/tmp/f", "./f"],
  );
});

test("shell words: plain ones as they are, the rest single-quoted for ssh's sh -c", () => {
  assert.equal(shellWord("/usr/bin/node"), "/usr/bin/node");
  assert.equal(shellWord("--as=john doe"), "'--as=john doe'");
  assert.equal(shellWord("it's"), `'it'\\''s'`);
  assert.equal(shellWord("$(reboot)"), "'$(reboot)'");
});

test("the ProxyCommand's virtctl gets the flags that chose the cluster, the kubeconfig made absolute", () => {
  assert.deepEqual(globalFlagsOf({ kubeconfig: "/a/kc", context: "dev", namespace: "ns" }), [
    "--kubeconfig=/a/kc",
    "--context=dev",
  ]);
  assert.match(globalFlagsOf({ kubeconfig: "kc" })[0] ?? "", /^--kubeconfig=\/.+\/kc$/);
  assert.equal(defaultUsername({ USERNAME: "w", LOGNAME: "l" }), "w");
  assert.equal(defaultUsername({}), undefined);
});

test("ssh and scp targets: user@ first, then type/name[/namespace]; scp needs exactly one remote side", () => {
  assert.deepEqual(parseSshTarget("user@vm/testvm/default"), {
    target: { kind: "vm", name: "testvm", namespace: "default" },
    username: "user",
  });
  assert.deepEqual(parseSshTarget("vmi/a.b"), { target: { kind: "vmi", name: "a.b" } });
  assert.throws(() => parseSshTarget("@vmi/testvmi"), /^CliError: expected username before '@'/);
  assert.throws(() => parseSshTarget("user@"), /^CliError: expected target after '@'/);
  assert.throws(() => parseSshTarget("user@testvmi"), /target must contain type and name separated by '\/'/);
  assert.deepEqual(parseScpLocations("jdoe@vmi/testvmi:myfile.bin", "/tmp/local"), {
    remote: { target: { kind: "vmi", name: "testvmi" }, username: "jdoe", path: "myfile.bin" },
    localPath: "/tmp/local",
    toRemote: false,
  });
  assert.equal(parseScpLocations("./dir", "vm/x/ns:.").toRemote, true);
  assert.throws(() => parseScpLocations("vm/a:x", "vm/b:y"), /remote location to another remote location/);
  assert.throws(
    () => parseScpLocations("a", "b"),
    /none of the two provided locations seems to be a remote location/,
  );
});

test("--flag=true and --flag=false of boolean flags become commander's --flag / --no-flag", () => {
  const program = new Command("virtctl").option("--kubeconfig <path>");
  program.addCommand(new Command("port-forward").option("--stdio").option("--address <a>"));
  program.addCommand(new Command("ssh").option("--local-ssh").option("--no-local-ssh"));
  assert.deepEqual(
    expandBooleanAssignments(
      ["node", "main.js", "--kubeconfig=/k", "port-forward", "--stdio=true", "--address=true", "vm/x", "22"],
      program,
    ),
    ["node", "main.js", "--kubeconfig=/k", "port-forward", "--stdio", "--address=true", "vm/x", "22"],
  );
  assert.deepEqual(
    expandBooleanAssignments(["--stdio=False", "--local-ssh=false", "--local-ssh=TRUE"], program),
    ["--no-local-ssh", "--local-ssh"],
  );
});
