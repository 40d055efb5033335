// Small devices: the entropy source, the memory balloon and input devices.
import type { InputDevice } from "../../libvirt/domain-xml/index.js";
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

/** `devices.rng`: a virtio RNG fed from the host's /dev/urandom. */
export const configureRng: Configurator = (domain, { spec }) => {
  if (spec.domain.devices.rng === undefined) return;
  domain.devices.rngs = [{ model: "virtio", backend: { model: "random", device: "/dev/urandom" } }];
};

/**
 * A virtio balloon reporting guest memory statistics every 10 s (KubeVirt's default), or none when
 * autoattachMemBalloon is false (libvirt would otherwise add one by itself).
 */
export const configureMemBalloon: Configurator = (domain, { spec }) => {
  domain.devices.memballoon =
    spec.domain.devices.autoattachMemBalloon === false
      ? { model: "none" }
      : { model: "virtio", statsPeriodSeconds: 10 };
};

/** The name KubeVirt gives the input device autoattachInputDevice adds. */
const AUTOATTACHED_INPUT = "default-0";

/** `devices.inputs`: tablets and keyboards on usb (KubeVirt's default) or virtio. */
export const configureInputs: Configurator = (domain, { spec }) => {
  const inputs: InputDevice[] = [];
  for (const input of spec.domain.devices.inputs ?? []) {
    const type = input.type || "tablet";
    const bus = input.bus || "usb";
    if (type !== "tablet" && type !== "keyboard") {
      throw new VmiConversionError("InvalidSpec", `input ${input.name}: type must be tablet or keyboard`);
    }
    if (bus !== "usb" && bus !== "virtio") {
      throw new VmiConversionError("InvalidSpec", `input ${input.name}: bus must be usb or virtio`);
    }
    inputs.push({ type, bus, alias: `ua-${input.name}` });
  }
  // autoattachInputDevice: a tablet on usb when the VMI names no input, as KubeVirt adds one.
  if (inputs.length === 0 && spec.domain.devices.autoattachInputDevice === true) {
    inputs.push({ type: "tablet", bus: "usb", alias: `ua-${AUTOATTACHED_INPUT}` });
  }
  if (inputs.length > 0) domain.devices.inputs = inputs;
};
