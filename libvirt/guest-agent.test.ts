// The guest agent calls that test:///default can answer (it has no agent: guest info and agent
// commands are refused with typed errors), the typing of libvirt's guest-info parameters, and the
// guest-exec polling protocol. The calls against a real qemu-ga are in virt-handler/agent-qemu.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Connection } from "./connection.js";
import { ErrorCode } from "./error-codes.js";
import { LibvirtError } from "./errors.js";
import { agentExec, agentPing } from "./guest-exec.js";
import { guestInfoFromParams } from "./guest-info.js";
import { testDomainXml, uniqueName } from "./testing/test-domains.js";

describe("guest agent calls on test:///default", () => {
  let conn: Connection;
  before(async () => {
    conn = await Connection.open("test:///default");
  });
  after(() => conn.close());

  test("guest info and agent commands fail with libvirt's error, read on the worker", async () => {
    const domain = await conn.defineDomain(testDomainXml(uniqueName("agent")));
    try {
      await domain.start();
      await assert.rejects(domain.guestInfo(), (err: unknown) => LibvirtError.is(err, ErrorCode.NoSupport));
      await assert.rejects(agentPing(domain), (err: unknown) => err instanceof LibvirtError);
      await domain.destroy();
    } finally {
      await domain.undefine();
      domain.free();
    }
  });

  test("agent lifecycle subscriptions register and unregister on the connection", () => {
    const seen: unknown[] = [];
    const first = conn.onAgentLifecycle((event) => seen.push(event));
    const second = conn.onAgentLifecycle((event) => seen.push(event));
    first.unsubscribe();
    second.unsubscribe();
    const again = conn.onAgentLifecycle((event) => seen.push(event));
    again.unsubscribe();
    assert.deepEqual(seen, []);
  });
});

test("guest-info parameters become typed OS, users, file systems, host name and time zone", () => {
  const params = new Map<string, string | number | boolean>([
    ["os.id", "debian"],
    ["os.pretty-name", "Debian GNU/Linux 12 (bookworm)"],
    ["os.version-id", "12"],
    ["os.kernel-release", "6.1.0-57-amd64"],
    ["os.machine", "x86_64"],
    ["user.count", 1],
    ["user.0.name", "root"],
    ["user.0.login-time", 1700000000123],
    ["fs.count", 1],
    ["fs.0.mountpoint", "/"],
    ["fs.0.name", "vda1"],
    ["fs.0.fstype", "ext4"],
    ["fs.0.total-bytes", 1000],
    ["fs.0.used-bytes", 400],
    ["fs.0.disk.count", 1],
    ["fs.0.disk.0.alias", "vda"],
    ["fs.0.disk.0.serial", "abc"],
    ["hostname", "guest"],
    ["timezone.name", "UTC"],
    ["timezone.offset", 0],
  ]);
  assert.deepEqual(guestInfoFromParams(params), {
    os: {
      id: "debian",
      prettyName: "Debian GNU/Linux 12 (bookworm)",
      versionId: "12",
      kernelRelease: "6.1.0-57-amd64",
      machine: "x86_64",
    },
    users: [{ name: "root", loginTimeMs: 1700000000123 }],
    filesystems: [
      {
        mountPoint: "/",
        name: "vda1",
        fsType: "ext4",
        totalBytes: 1000,
        usedBytes: 400,
        disks: [{ alias: "vda", serial: "abc" }],
      },
    ],
    hostname: "guest",
    timezone: { name: "UTC", offsetSeconds: 0 },
  });
  assert.deepEqual(guestInfoFromParams(new Map()), {});
});

test("guest-exec: the pid is polled until the process exits; output is decoded", async () => {
  const sent: string[] = [];
  let polls = 0;
  const commander = {
    agentCommand: async (command: string) => {
      sent.push(JSON.parse(command).execute);
      if (command.includes('"guest-exec"')) return '{"return":{"pid":42}}';
      polls += 1;
      if (polls < 3) return '{"return":{"exited":false}}';
      const out = Buffer.from("hi\n").toString("base64");
      return `{"return":{"exited":true,"exitcode":3,"out-data":"${out}"}}`;
    },
  };
  const result = await agentExec(commander, ["/bin/sh", "-c", "echo hi; exit 3"], { pollIntervalMs: 1 });
  assert.deepEqual(result, { exitCode: 3, stdout: "hi\n", stderr: "" });
  assert.deepEqual(sent, ["guest-exec", "guest-exec-status", "guest-exec-status", "guest-exec-status"]);
  const never = {
    agentCommand: async (c: string) =>
      c.includes('"guest-exec"') ? '{"return":{"pid":1}}' : '{"return":{"exited":false}}',
  };
  await assert.rejects(
    agentExec(never, ["/bin/true"], { timeoutMs: 50, pollIntervalMs: 5 }),
    /still running/,
  );
  await assert.rejects(
    agentExec({ agentCommand: async () => '{"error":{"class":"GenericError"}}' }, ["/x"]),
    /no return value/,
  );
});
