import { type Static, Type } from "@sinclair/typebox";
import { Marker, StringEnum } from "../schema/kube-types.js";
import { DiskSchema, FilesystemSchema } from "./disks.js";
import { InterfaceSchema } from "./interfaces.js";

/** `spec.domain.devices` */

const MAX_DEVICES = 256;

const WatchdogAction = () => Type.Optional(StringEnum(["poweroff", "reset", "shutdown"]));

export const WatchdogSchema = Type.Object({
  name: Type.String(),
  i6300esb: Type.Optional(Type.Object({ action: WatchdogAction() })),
  diag288: Type.Optional(Type.Object({ action: WatchdogAction() })),
});

export const InputSchema = Type.Object({
  name: Type.String(),
  type: Type.String({ description: "tablet or keyboard." }),
  bus: Type.Optional(Type.String({ description: "usb or virtio; defaults to usb." })),
});

const ClaimRequest = {
  claimName: Type.Optional(Type.String()),
  requestName: Type.Optional(Type.String()),
};

export const GpuSchema = Type.Object({
  name: Type.String(),
  deviceName: Type.Optional(Type.String()),
  ...ClaimRequest,
  tag: Type.Optional(Type.String()),
  virtualGPUOptions: Type.Optional(
    Type.Object({
      display: Type.Optional(
        Type.Object({
          enabled: Type.Optional(Type.Boolean()),
          ramFB: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()) })),
        }),
      ),
    }),
  ),
});

export const HostDeviceSchema = Type.Object({
  name: Type.String(),
  deviceName: Type.Optional(Type.String()),
  ...ClaimRequest,
  tag: Type.Optional(Type.String()),
});

export const DevicesSchema = Type.Object({
  disks: Type.Optional(Type.Array(DiskSchema, { maxItems: MAX_DEVICES })),
  interfaces: Type.Optional(Type.Array(InterfaceSchema, { maxItems: MAX_DEVICES })),
  filesystems: Type.Optional(Type.Array(FilesystemSchema, { "x-kubernetes-list-type": "atomic" })),
  inputs: Type.Optional(Type.Array(InputSchema)),
  watchdog: Type.Optional(WatchdogSchema),
  rng: Type.Optional(Marker({ description: "Passes a virtio RNG from the host." })),
  gpus: Type.Optional(Type.Array(GpuSchema, { "x-kubernetes-list-type": "atomic" })),
  hostDevices: Type.Optional(Type.Array(HostDeviceSchema, { "x-kubernetes-list-type": "atomic" })),
  autoattachPodInterface: Type.Optional(Type.Boolean({ description: "Defaults to true." })),
  autoattachGraphicsDevice: Type.Optional(Type.Boolean({ description: "Defaults to true." })),
  autoattachSerialConsole: Type.Optional(Type.Boolean({ description: "Defaults to true." })),
  autoattachMemBalloon: Type.Optional(Type.Boolean()),
  autoattachInputDevice: Type.Optional(Type.Boolean()),
  autoattachVSOCK: Type.Optional(Type.Boolean()),
  logSerialConsole: Type.Optional(Type.Boolean()),
  useVirtioTransitional: Type.Optional(Type.Boolean()),
  disableHotplug: Type.Optional(Type.Boolean()),
  blockMultiQueue: Type.Optional(Type.Boolean()),
  networkInterfaceMultiqueue: Type.Optional(Type.Boolean()),
  downwardMetrics: Type.Optional(Marker()),
  clientPassthrough: Type.Optional(Marker()),
  sound: Type.Optional(Type.Object({ name: Type.String(), model: Type.Optional(Type.String()) })),
  tpm: Type.Optional(
    Type.Object({ enabled: Type.Optional(Type.Boolean()), persistent: Type.Optional(Type.Boolean()) }),
  ),
  video: Type.Optional(Type.Object({ type: Type.Optional(Type.String()) })),
  panicDevices: Type.Optional(
    Type.Array(Type.Object({ model: Type.Optional(StringEnum(["hyperv", "isa", "pvpanic"])) }), {
      "x-kubernetes-list-type": "atomic",
    }),
  ),
});
export type Devices = Static<typeof DevicesSchema>;
