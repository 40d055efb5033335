// addvolume / removevolume through virt-api against the dev API server: refused while no hotplug
// gate is on; under HotplugVolumes a VM's request is queued in status.volumeRequests (KubeVirt's
// checks and messages), a VMI's is written into its spec; under DeclarativeHotplugVolumes alone a
// VM's goes into its template. Dry runs write nothing; discovery lists the four subresources.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { kubeVirtKind, type VirtualMachine, vmiKind, vmKind } from "../kinds.js";
import type { CallResult } from "../testing/front-proxy-client.js";
import { createVm, createVmi, subresourcePath, TEST_NAMESPACE } from "../testing/test-objects.js";
import { NAMESPACE, startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";

const GATE_OFF = "Enable DeclarativeHotplugVolumes or HotplugVolumes feature gate to use this API.";

const addClaim = (name: string, claimName = name) => ({
  name,
  disk: {},
  volumeSource: { persistentVolumeClaim: { claimName } },
});

describe("virt-api: addvolume and removevolume", () => {
  let fixture: VirtApiFixture;
  let counter = 0;

  before(async () => {
    fixture = await startVirtApiFixture();
  });
  after(() => fixture.close());

  const put = (
    resource: "virtualmachines" | "virtualmachineinstances",
    name: string,
    subresource: "addvolume" | "removevolume",
    body: unknown,
  ): Promise<CallResult> =>
    fixture.call("PUT", subresourcePath(resource, name, subresource), {
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const vm = (name: string): Promise<VirtualMachine> =>
    fixture.client.resource(vmKind).get({ namespace: TEST_NAMESPACE, name });
  const vmi = (name: string) => fixture.client.resource(vmiKind).get({ namespace: TEST_NAMESPACE, name });
  const message = (answer: CallResult): string =>
    (answer.json as { message?: string } | undefined)?.message ?? answer.body;
  const freshName = () => {
    counter += 1;
    return `hp-${counter}`;
  };

  function assertConflict(answer: CallResult, resource: string, name: string, reason: string): void {
    assert.equal(answer.code, 409, answer.body);
    assert.equal(
      message(answer),
      `Operation cannot be fulfilled on ${resource}.kubevirt.io "${name}": ${reason}`,
    );
  }

  async function setGates(featureGates: string[]): Promise<void> {
    const kubevirts = fixture.client.resource(kubeVirtKind);
    const configuration = { developerConfiguration: { featureGates } };
    try {
      await kubevirts.get({ namespace: NAMESPACE, name: "kubevirt" });
      await kubevirts.mergePatch({ namespace: NAMESPACE, name: "kubevirt" }, { spec: { configuration } });
    } catch {
      await kubevirts.create({
        metadata: { name: "kubevirt", namespace: NAMESPACE },
        spec: { configuration },
      });
    }
    const probe = freshName();
    await createVm(fixture.client, probe, "Halted");
    const on = featureGates.length > 0;
    await eventually(`virt-api to see the gates ${featureGates.join(",") || "off"}`, async () => {
      const answer = await put("virtualmachines", probe, "addvolume", { ...addClaim("x"), dryRun: ["All"] });
      return (answer.code === 202) === on ? true : undefined;
    });
  }

  test("discovery lists addvolume and removevolume on VMs and VMIs", async () => {
    const answer = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1");
    const names = (answer.json as { resources: { name: string }[] }).resources.map((entry) => entry.name);
    for (const resource of ["virtualmachines", "virtualmachineinstances"]) {
      for (const subresource of ["addvolume", "removevolume"]) {
        assert.ok(names.includes(`${resource}/${subresource}`), `${resource}/${subresource} in ${names}`);
      }
    }
  });

  test("without HotplugVolumes or DeclarativeHotplugVolumes every volume request is a 400", async () => {
    const name = freshName();
    await createVm(fixture.client, name, "Always");
    await createVmi(fixture.client, name, "Running");
    for (const resource of ["virtualmachines", "virtualmachineinstances"] as const) {
      for (const [subresource, body] of [
        ["addvolume", addClaim("data")],
        ["removevolume", { name: "data" }],
      ] as const) {
        const answer = await put(resource, name, subresource, body);
        assert.equal(answer.code, 400, answer.body);
        assert.equal(message(answer), GATE_OFF);
      }
    }
    assert.equal((await vm(name)).status?.volumeRequests, undefined);
  });

  test("HotplugVolumes: an add on a VM is queued hotpluggable, as a SCSI disk named after the volume", async () => {
    await setGates(["HotplugVolumes"]);
    const name = freshName();
    await createVm(fixture.client, name, "Always");
    const added = await put("virtualmachines", name, "addvolume", {
      ...addClaim("data", "data-claim"),
      disk: { name: "ignored", serial: "s1" },
    });
    assert.equal(added.code, 202, added.body);
    const dataVolume = await put("virtualmachines", name, "addvolume", {
      name: "dv",
      disk: {},
      volumeSource: { dataVolume: { name: "my-dv" } },
    });
    assert.equal(dataVolume.code, 202, dataVolume.body);
    // What kubevirt-ts cannot honour yet is refused, with the reason.
    for (const [disk, why] of [
      [{ lun: {} }, /a lun needs a block volume/],
      [{ disk: { bus: "virtio" } }, /scsi bus only/],
      [
        { bootOrder: 1, disk: { bus: "scsi", pciAddress: "0000:00:0a.0" } },
        /bootOrder, disk\.pciAddress not supported yet/,
      ],
    ] as const) {
      const refused = await put("virtualmachines", name, "addvolume", {
        name: "other",
        disk,
        volumeSource: { persistentVolumeClaim: { claimName: "other" } },
      });
      assert.equal(refused.code, 400, refused.body);
      assert.match(refused.body, why);
    }
    assert.deepEqual((await vm(name)).status?.volumeRequests, [
      {
        addVolumeOptions: {
          name: "data",
          disk: { name: "data", serial: "s1", disk: { bus: "scsi" } },
          volumeSource: { persistentVolumeClaim: { claimName: "data-claim", hotpluggable: true } },
        },
      },
      {
        addVolumeOptions: {
          name: "dv",
          disk: { name: "dv", disk: { bus: "scsi" } },
          volumeSource: { dataVolume: { name: "my-dv", hotpluggable: true } },
        },
      },
    ]);
    // The template is virt-controller's to change.
    assert.equal((await vm(name)).spec.template.spec?.volumes?.length, 1);
  });

  test("an add is refused for a name or source the template has, or a pending request of the name", async () => {
    const name = freshName();
    await createVm(fixture.client, name, "Always");
    assertConflict(
      await put("virtualmachines", name, "addvolume", addClaim("rootdisk", "other")),
      "virtualmachine",
      name,
      "Unable to add volume [rootdisk] because volume with that name already exists",
    );
    assert.equal((await put("virtualmachines", name, "addvolume", addClaim("data"))).code, 202);
    assertConflict(
      await put("virtualmachines", name, "addvolume", addClaim("data", "other-claim")),
      "virtualmachine",
      name,
      "add volume request for volume [data] already exists",
    );
    // A remove is checked against the template, which has the volume only once virt-controller applied the add.
    assertConflict(
      await put("virtualmachines", name, "removevolume", { name: "data" }),
      "virtualmachine",
      name,
      "Unable to remove volume [data] because it does not exist",
    );
  });

  test("a remove on a VM is refused for an unknown or a non-hotpluggable volume, queued otherwise", async () => {
    const name = freshName();
    await createVm(fixture.client, name, "Always");
    assertConflict(
      await put("virtualmachines", name, "removevolume", { name: "nope" }),
      "virtualmachine",
      name,
      "Unable to remove volume [nope] because it does not exist",
    );
    assertConflict(
      await put("virtualmachines", name, "removevolume", { name: "rootdisk" }),
      "virtualmachine",
      name,
      "Unable to remove volume [rootdisk] because it is not hotpluggable",
    );
    const current = await vm(name);
    const template = structuredClone(current.spec.template.spec) as NonNullable<
      VirtualMachine["spec"]["template"]["spec"]
    >;
    template.volumes = [
      ...(template.volumes ?? []),
      { name: "data", persistentVolumeClaim: { claimName: "data-claim", hotpluggable: true } },
    ];
    template.domain.devices.disks = [
      ...(template.domain.devices.disks ?? []),
      { name: "data", disk: { bus: "scsi" } },
    ];
    await fixture.client
      .resource(vmKind)
      .mergePatch({ namespace: TEST_NAMESPACE, name }, { spec: { template: { spec: template } } });
    // Named by its claim, as virtctl users may: the request names the volume.
    const removed = await put("virtualmachines", name, "removevolume", { name: "data-claim" });
    assert.equal(removed.code, 202, removed.body);
    assert.deepEqual((await vm(name)).status?.volumeRequests, [{ removeVolumeOptions: { name: "data" } }]);
    assertConflict(
      await put("virtualmachines", name, "removevolume", { name: "data" }),
      "virtualmachine",
      name,
      "a remove volume request for volume [data] already exists and is still being processed",
    );
    assertConflict(
      await put("virtualmachines", name, "addvolume", addClaim("data", "another")),
      "virtualmachine",
      name,
      "Unable to add volume [data] because volume with that name already exists",
    );
  });

  test("bodies: KubeVirt's 400s for what is missing, and for what does not decode", async () => {
    const name = freshName();
    await createVm(fixture.client, name, "Always");
    const cases: [string, "addvolume" | "removevolume", unknown, RegExp][] = [
      ["empty", "addvolume", "", /^AddVolumeOptions requires name to be set$/],
      [
        "no disk",
        "addvolume",
        { name: "d", volumeSource: {} },
        /^AddVolumeOptions requires disk to not be nil$/,
      ],
      [
        "no source",
        "addvolume",
        { name: "d", disk: {} },
        /^AddVolumeOptions requires VolumeSource to not be nil$/,
      ],
      ["no claim", "addvolume", { name: "d", disk: {}, volumeSource: {} }, /exactly one of/],
      ["garbled", "addvolume", '{"name": "d"', /^unable to decode AddVolumeOptions/],
      [
        "bad field",
        "addvolume",
        { ...addClaim("d"), disk: { cache: 3 } },
        /^unable to decode AddVolumeOptions: disk\.cache/,
      ],
      [
        "bad bus",
        "addvolume",
        { ...addClaim("d"), disk: { disk: { bus: "sata" } } },
        /Invalid bus type 'sata'/,
      ],
      ["cdrom", "addvolume", { ...addClaim("d"), disk: { cdrom: {} } }, /not a cdrom/],
      ["remove empty", "removevolume", {}, /^RemoveVolumeOptions requires name to be set$/],
    ];
    for (const [what, subresource, body, expected] of cases) {
      const answer = await put("virtualmachines", name, subresource, body);
      assert.equal(answer.code, 400, `${what}: ${answer.body}`);
      assert.match(message(answer), expected, what);
    }
    const missing = await put("virtualmachines", "no-such-vm", "addvolume", addClaim("d"));
    assert.equal(missing.code, 404, missing.body);
    assert.equal(message(missing), 'virtualmachine.kubevirt.io "no-such-vm" not found');
  });

  test("a dry run answers as the real request would and writes nothing", async () => {
    const name = freshName();
    await createVm(fixture.client, name, "Always");
    const before = (await vm(name)).metadata?.resourceVersion;
    const dry = await put("virtualmachines", name, "addvolume", { ...addClaim("data"), dryRun: ["All"] });
    assert.equal(dry.code, 202, dry.body);
    assert.equal((await vm(name)).metadata?.resourceVersion, before);
    assert.equal((await vm(name)).status?.volumeRequests, undefined);
    assertConflict(
      await put("virtualmachines", name, "removevolume", { name: "rootdisk", dryRun: ["All"] }),
      "virtualmachine",
      name,
      "Unable to remove volume [rootdisk] because it is not hotpluggable",
    );
  });

  test("on a running VMI the volume and its disk are written into its spec, and removed again", async () => {
    const name = freshName();
    await createVmi(fixture.client, name, "Running");
    const added = await put("virtualmachineinstances", name, "addvolume", addClaim("data", "data-claim"));
    assert.equal(added.code, 202, added.body);
    const changed = await vmi(name);
    assert.deepEqual(changed.spec.volumes?.at(-1), {
      name: "data",
      persistentVolumeClaim: { claimName: "data-claim", hotpluggable: true },
    });
    assert.deepEqual(changed.spec.domain.devices.disks?.at(-1), { name: "data", disk: { bus: "scsi" } });
    assertConflict(
      await put("virtualmachineinstances", name, "addvolume", addClaim("other", "data-claim")),
      "virtualmachineinstance",
      name,
      "Unable to add volume source [data-claim] because it already exists",
    );
    const removed = await put("virtualmachineinstances", name, "removevolume", { name: "data" });
    assert.equal(removed.code, 202, removed.body);
    const after = await vmi(name);
    assert.deepEqual(
      after.spec.volumes?.map((volume) => volume.name),
      ["rootdisk"],
    );
    assert.deepEqual(
      after.spec.domain.devices.disks?.map((disk) => disk.name),
      ["rootdisk"],
    );

    const scheduled = freshName();
    await createVmi(fixture.client, scheduled, "Scheduled");
    assertConflict(
      await put("virtualmachineinstances", scheduled, "addvolume", addClaim("data")),
      "virtualmachineinstance",
      scheduled,
      "VMI is not running",
    );
    const missing = await put("virtualmachineinstances", "no-such-vmi", "addvolume", addClaim("data"));
    assert.equal(missing.code, 404, missing.body);
  });

  test("DeclarativeHotplugVolumes alone: a VM's add goes into its template; its VMI is the VM's to change", async () => {
    await setGates(["DeclarativeHotplugVolumes"]);
    const name = freshName();
    const created = await createVm(fixture.client, name, "Always");
    const added = await put("virtualmachines", name, "addvolume", addClaim("data", "data-claim"));
    assert.equal(added.code, 202, added.body);
    const changed = await vm(name);
    assert.equal(changed.status?.volumeRequests, undefined);
    assert.deepEqual(changed.spec.template.spec?.volumes?.at(-1), {
      name: "data",
      persistentVolumeClaim: { claimName: "data-claim", hotpluggable: true },
    });
    assert.deepEqual(changed.spec.template.spec?.domain.devices.disks?.at(-1), {
      name: "data",
      disk: { bus: "scsi" },
    });

    await createVmi(fixture.client, name, "Running");
    await fixture.client.resource(vmiKind).mergePatch(
      { namespace: TEST_NAMESPACE, name },
      {
        metadata: {
          ownerReferences: [
            {
              apiVersion: "kubevirt.io/v1",
              kind: "VirtualMachine",
              name,
              uid: created.metadata?.uid ?? "",
              controller: true,
            },
          ],
        },
      },
    );
    const owned = await put("virtualmachineinstances", name, "addvolume", addClaim("more"));
    assert.equal(owned.code, 400, owned.body);
    assert.equal(message(owned), `VMI ${TEST_NAMESPACE}/${name} is owned by a VM`);
  });
});
