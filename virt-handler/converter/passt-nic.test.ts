// The passt NIC: QEMU's arguments that join the guest's NIC to the passt socket in the VM's
// directory, checked by conversion (with the XML round trip), by reading them back for the status,
// and by libvirt's own schema (virsh define --validate on test:///default).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { promisify } from "node:util";
import { domainToXml } from "../../libvirt/domain-xml/index.js";
import { stableMacAddress } from "../network/guest-mac.js";
import { passtNicArgs, passtNicsOf } from "./passt-nic.js";
import { convert, refuses, spec, UID } from "./testing/test-conversions.js";

const run = promisify(execFile);
const PLACED = { rootBus: "pcie.0", slot: 0x1e } as const;
const SOCKET = "/run/kubevirt-ts/testvm/passt.sock";
const passtSpec = (iface: Record<string, unknown>) =>
  spec(
    { devices: { interfaces: [{ name: "default", ...iface }] } },
    { networks: [{ name: "default", pod: {} }] },
  );

describe("passt NIC", () => {
  test("passtBinding and the passt plugin become a stream netdev to the VM's socket, not a libvirt interface", () => {
    for (const binding of [{ passtBinding: {} }, { binding: { name: "passt" } }]) {
      const domain = convert(passtSpec({ ...binding, bootOrder: 2 }), { passtSocketPath: SOCKET });
      assert.equal(domain.devices.interfaces, undefined, JSON.stringify(binding));
      const mac = stableMacAddress(UID, "default");
      const args = domain.qemuCommandline?.args ?? [];
      const at = args.indexOf("-netdev");
      assert.deepEqual(args.slice(at, at + 4), [
        "-netdev",
        `stream,id=hostpasst-default,server=off,addr.type=unix,addr.path=${SOCKET}`,
        "-device",
        `virtio-net-pci,netdev=hostpasst-default,id=passt-default,mac=${mac},bus=pcie.0,addr=0x1e,bootindex=2`,
      ]);
      assert.deepEqual(passtNicsOf(domain), [
        { type: "user", backend: { type: "passt" }, model: "virtio", alias: "ua-default", mac },
      ]);
    }
  });

  test("what the NIC cannot carry is refused: another plugin, another model, a down link", () => {
    refuses(
      passtSpec({ binding: { name: "slirp" } }),
      "UnsupportedInterface",
      /binding plugin slirp is not supported/,
      {
        passtSocketPath: SOCKET,
      },
    );
    refuses(passtSpec({ passtBinding: {}, model: "e1000" }), "InvalidSpec", /passt needs model virtio/, {
      passtSocketPath: SOCKET,
    });
    refuses(passtSpec({ passtBinding: {}, state: "down" }), "UnsupportedInterface", /state down/, {
      passtSocketPath: SOCKET,
    });
    assert.throws(
      () =>
        passtNicArgs({
          interfaceName: "a",
          mac: "02:00:00:00:00:01",
          socketPath: SOCKET,
          rootBus: "pcie.0",
          slot: 0x1f,
        }),
      /slot/,
    );
    assert.throws(() =>
      passtNicArgs({ interfaceName: "a,b", mac: "02:00:00:00:00:01", socketPath: SOCKET, ...PLACED }),
    );
    assert.throws(() =>
      passtNicArgs({ interfaceName: "a", mac: "02:00:00:00:00:01,x=y", socketPath: SOCKET, ...PLACED }),
    );
    // A comma in the path is QEMU's escape, doubled, never a new option.
    assert.match(
      passtNicArgs({
        interfaceName: "a",
        mac: "02:00:00:00:00:01",
        socketPath: "/x,y/passt.sock",
        ...PLACED,
      })[1] ?? "",
      /addr\.path=\/x,,y\/passt\.sock$/,
    );
  });

  test("libvirt accepts the domain (virsh define --validate on test:///default)", async () => {
    const domain = convert(passtSpec({ passtBinding: {} }), { passtSocketPath: SOCKET });
    const dir = await mkdtemp(join(tmpdir(), "passt-nic-"));
    try {
      const file = join(dir, "domain.xml");
      await writeFile(file, domainToXml(domain));
      const { stdout } = await run("virsh", ["-c", "test:///default", `define --validate ${file}`]);
      assert.match(stdout, /Domain 'testns_testvm' defined/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
