// Disk image files checked before QEMU opens them: our own qcow2 header reader (no qemu-img), refusing
// images that name other files; anything else is raw.
export { checkedDiskImageFormat, type DiskFormatRequest, type DiskImageFormat } from "./disk-format.js";
export { DiskImageError } from "./disk-image-error.js";
export { readFileHead } from "./file-head.js";
export {
  hasQcowMagic,
  QCOW2_HEADER_READ_BYTES,
  type Qcow2Header,
  Qcow2HeaderError,
  qcow2Refusal,
  readQcow2Header,
} from "./qcow2-header.js";
