// Graphics: a VNC server on a unix socket (virt-handler proxies `virtctl vnc` to it) and a video card,
// unless autoattachGraphicsDevice is false. KubeVirt's video: VGA with BIOS, bochs with EFI, or the
// model `devices.video.type` names.
import type { Video } from "../../libvirt/domain-xml/index.js";
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

const VIDEO_MODELS: ReadonlyArray<Video["model"]["type"]> = ["vga", "cirrus", "virtio", "bochs", "ramfb"];

function videoModel(type: string | undefined, efi: boolean): Video["model"] {
  const wanted = type || (efi ? "bochs" : "vga");
  const known = VIDEO_MODELS.find((model) => model === wanted);
  if (known === undefined) throw new VmiConversionError("InvalidSpec", `unknown video type ${wanted}`);
  return known === "vga" ? { type: known, vram: 16384, heads: 1 } : { type: known, heads: 1 };
}

export const configureGraphics: Configurator = (domain, { spec, options }) => {
  const devices = spec.domain.devices;
  if (devices.autoattachGraphicsDevice === false) return;
  const efi = spec.domain.firmware?.bootloader?.efi !== undefined;
  domain.devices.graphics = [{ type: "vnc", listen: { type: "socket", socket: options.vncSocketPath } }];
  domain.devices.videos = [{ model: videoModel(devices.video?.type, efi) }];
};
