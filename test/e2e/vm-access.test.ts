/**
 * Reaching a VM's ports with virtctl, end to end on `npm start`'s stack with the real kubectl,
 * libvirt and QEMU (TCG): `virtctl port-forward vm/NAME LOCAL:80` answers HTTP from the guest (its
 * address came by DHCP from its launcher; virt-api dials it), `--stdio` carries one exchange on
 * stdin and stdout, and `virtctl ssh` / `virtctl scp` run the system's OpenSSH with virtctl as the
 * ProxyCommand, with a key the VM got through spec.accessCredentials (noCloud): the public keys live
 * in a Secret, the launcher pod mounts it (`<secret>-access-cred`), virt-handler puts them into the
 * NoCloud meta-data (`public-keys`, as KubeVirt does), the test guest gives them to root and its
 * dropbear lets them in (plain ssh from the node at the pod's IP too). What needs the guest agent is
 * refused at admission. Runs as root (pod network namespaces, qemu:///system). The tests run in order.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { httpGet } from "./testing/http-get.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { pollUntil } from "./testing/poll.js";
import { RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl, VirtctlSession } from "./testing/virtctl-process.js";
import { tinyVm } from "./testing/vm-manifests.js";

const run = promisify(execFile);
const BOOT_MS = 90_000;
const SECRET = "team-keys";
const LOCAL_PORT = 18080;
const SSH_OPTIONS = [
  "-t",
  "-o StrictHostKeyChecking=no",
  "-t",
  "-o UserKnownHostsFile=/dev/null",
  "-t",
  "-o LogLevel=ERROR",
];

describe("virtctl port-forward, ssh and scp to a VM", { timeout: 300_000 }, () => {
  const namespace = `access-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  const sessions = new Set<VirtctlSession>();
  /** Two keys of one Secret, both given to the guest, and one that is not. */
  const keys = { mine: "", spare: "", stranger: "" };

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const target = () => ({
    repoRoot: requireStack().repoRoot,
    kubeconfig: requireStack().kubeconfig,
    namespace,
  });
  const virtctlSsh = (...args: string[]) =>
    runVirtctl(target(), ["ssh", "root@vm/keyed", "-i", keys.mine, ...SSH_OPTIONS, ...args]);
  const startVirtctl = (args: string[]) => {
    const session = VirtctlSession.start(target(), args, { terminal: false });
    sessions.add(session);
    return session;
  };

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-access-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "access" });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
    for (const name of ["mine", "spare", "stranger"] as const) keys[name] = join(workDir, `id_${name}`);
    const [mine, spare] = [await newKey(keys.mine), await newKey(keys.spare)];
    await newKey(keys.stranger);
    await kubectl.ok([
      ...["create", "secret", "generic", SECRET, "-n", namespace],
      ...[`--from-file=mine=${mine}`, `--from-file=spare=${spare}`],
    ]);
    await kubectl.apply(JSON.stringify(tinyVm(stack.repoRoot, { name: "web", namespace })));
    await objects.waitForVmiPhase("web", "Running", { timeoutMs: BOOT_MS });
  });

  after(async () => {
    for (const session of sessions) session.kill();
    await tearDownRun({ label: "vm-access", namespace, workDir, stack, kubectl, domains });
  });

  test(`virtctl port-forward vm/web ${LOCAL_PORT}:80: HTTP on localhost is answered by the guest`, async () => {
    const forward = startVirtctl(["port-forward", "vm/web", `${LOCAL_PORT}:80`]);
    await forward.messages.waitFor(`forwarding tcp 127.0.0.1:${LOCAL_PORT} to 80`, 30_000);
    // Until the guest has its address and its httpd, the tunnel is refused (virtctl says why, once per try).
    const answer = await pollUntil(
      "the guest's HTTP server through the tunnel",
      async () => {
        const got = await httpGet("127.0.0.1", LOCAL_PORT);
        return got.body || undefined;
      },
      { timeoutMs: BOOT_MS },
    );
    assert.equal(answer.trim(), "web", "the guest answers with its hostname");
    // Two at once: each connection is a tunnel of its own.
    const [first, second] = await Promise.all([
      httpGet("127.0.0.1", LOCAL_PORT),
      httpGet("127.0.0.1", LOCAL_PORT),
    ]);
    assert.equal(first.body?.trim(), "web");
    assert.equal(second.body?.trim(), "web");
    forward.signal("SIGINT");
    assert.deepEqual(await forward.exit("port-forward after SIGINT", 10_000), { code: 0, signal: null });
  });

  test("virtctl port-forward --stdio: a request on stdin, the guest's answer on stdout", async () => {
    const session = startVirtctl(["port-forward", "--stdio=true", "vmi/web", "80"]);
    await session.write("GET / HTTP/1.0\r\n\r\n");
    // The guest's httpd answers and closes: the tunnel, and virtctl, end with it.
    const exit = await session.exit("port-forward --stdio after the answer", 30_000);
    assert.deepEqual(exit, { code: 0, signal: null }, session.messages.tail());
    assert.match(session.output.text, /^HTTP\/1\.[01] 200 /);
    assert.match(session.output.text, /\r\n\r\nweb\n?$/);
  });

  test("a refused port-forward is one line: a VM that does not exist", async () => {
    const result = await runVirtctl(target(), ["port-forward", "--stdio", "vm/nothing-here", "80"]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, /^error: .*nothing-here.*not found/);
  });

  test("accessCredentials that need the guest agent are refused at admission, with the field path", async () => {
    const vm = withCredentials(tinyVm(requireStack().repoRoot, { name: "agent", namespace }), {
      qemuGuestAgent: { users: ["root"] },
    });
    const refused = await kubectl.run(["apply", "-f", "-"], { input: JSON.stringify(vm) });
    assert.equal(refused.code, 1, "kubectl apply fails");
    assert.match(
      refused.stderr,
      /spec\.template\.spec\.accessCredentials\[0\]\.sshPublicKey\.propagationMethod\.qemuGuestAgent.*not supported yet/,
    );
    assert.equal(await objects.vm("agent"), undefined, "no VM");
  });

  test("the launcher mounts the key Secret; ssh from the node at the pod's IP lets its keys in, no other", async () => {
    const vm = withCredentials(tinyVm(requireStack().repoRoot, { name: "keyed", namespace }), {
      noCloud: {},
    });
    await kubectl.apply(JSON.stringify(vm));
    await objects.waitForVmiPhase("keyed", "Running", { timeoutMs: BOOT_MS });
    const [pod] = await objects.launcherPods("keyed");
    const volume = pod?.spec?.volumes?.find((candidate) => candidate.name === `${SECRET}-access-cred`);
    assert.equal(volume?.secret?.secretName, SECRET, "the launcher pod mounts the Secret");
    const podIP = pod?.status?.podIP ?? "";
    const answer = await pollUntil(
      "the guest's SSH server to let the Secret's key in",
      async () => sshDirect(keys.mine, podIP, "hostname").catch(() => undefined),
      { timeoutMs: BOOT_MS },
    );
    assert.equal(answer, "keyed");
    const authorized = await sshDirect(keys.mine, podIP, "cat /root/.ssh/authorized_keys");
    assert.equal(authorized.split("\n").length, 2, `both keys of the Secret: ${authorized}`);
    await assert.rejects(sshDirect(keys.stranger, podIP, "hostname"), /Permission denied/);
  });

  test("virtctl ssh root@vm/keyed runs a command in the guest and ends with its status", async () => {
    const hostname = await pollUntil(
      "virtctl ssh to answer",
      async () => {
        const result = await virtctlSsh("-c", "hostname");
        return result.code === 0 ? result.stdout : undefined;
      },
      { timeoutMs: BOOT_MS },
    );
    assert.equal(hostname.trim(), "keyed");
    const failing = await virtctlSsh("--command", "exit 7");
    assert.equal(failing.code, 7, "virtctl ends with the remote command's status");
  });

  test("virtctl scp copies a file to the guest and back", async () => {
    const local = join(workDir, "to-the-vm.txt");
    await writeFile(local, "copied by virtctl scp\n");
    // -O: the classic scp protocol (dropbear has no SFTP server).
    const scpOptions = ["-i", keys.mine, ...SSH_OPTIONS, "-t", "-O"];
    const up = await runVirtctl(target(), ["scp", ...scpOptions, local, "root@vm/keyed:/tmp/copied.txt"]);
    assert.equal(up.code, 0, up.stderr);
    assert.equal((await virtctlSsh("-c", "cat /tmp/copied.txt")).stdout, "copied by virtctl scp\n");
    const back = join(workDir, "from-the-vm.txt");
    const down = await runVirtctl(target(), [
      "scp",
      ...scpOptions,
      `root@vm/keyed/${namespace}:/tmp/copied.txt`,
      back,
    ]);
    assert.equal(down.code, 0, down.stderr);
    assert.equal(await readFile(back, "utf8"), "copied by virtctl scp\n");
  });
});

/** ssh from the node as root to `host`, running `command`; rejects when ssh fails. */
async function sshDirect(identity: string, host: string, command: string): Promise<string> {
  const options = [
    ...["StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null"],
    ...["BatchMode=yes", "ConnectTimeout=10"],
  ];
  const args = [...options.flatMap((option) => ["-o", option]), "-i", identity, `root@${host}`, command];
  const { stdout } = await run("ssh", args, { timeout: 30_000 });
  return stdout.trim();
}

async function newKey(path: string): Promise<string> {
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "e2e@node", "-f", path]);
  return `${path}.pub`;
}

function withCredentials(vm: ReturnType<typeof tinyVm>, propagationMethod: object) {
  const template = vm.spec.template.spec as Record<string, unknown>;
  template.accessCredentials = [
    { sshPublicKey: { source: { secret: { secretName: SECRET } }, propagationMethod } },
  ];
  return vm;
}
