import assert from "node:assert/strict";
import { test } from "node:test";
import { domainToXml } from "../../libvirt/domain-xml/index.js";
import { GUEST_AGENT_CHANNEL_NAME } from "./guest-agent-channel.js";
import { convert, spec } from "./testing/test-conversions.js";

test("every domain gets the guest agent channel, by default beside the VNC socket", () => {
  const { devices } = convert(spec());
  assert.deepEqual(devices.channels, [
    {
      type: "unix",
      sourceMode: "bind",
      sourcePath: "/run/kubevirt-ts/testvm/agent.sock",
      target: { type: "virtio", name: GUEST_AGENT_CHANNEL_NAME },
    },
  ]);
});

test("the agent socket path given in the options, in KubeVirt's XML shape", () => {
  const domain = convert(spec(), { agentSocketPath: "/vms/uid/agent.sock" });
  const xml = domainToXml(domain);
  assert.match(
    xml,
    /<channel type="unix">\s*<source mode="bind" path="\/vms\/uid\/agent.sock"\/>\s*<target type="virtio" name="org.qemu.guest_agent.0"\/>\s*<\/channel>/,
  );
});
