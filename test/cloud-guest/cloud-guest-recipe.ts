// What the Debian 12 cloud guest is made of: the suite, the mirror, the packages debootstrap installs, the
// disk's shape and the kernel command line. Everything here is part of the build cache's key.

export const CLOUD_GUEST_SUITE = "bookworm";
export const CLOUD_GUEST_MIRROR = "http://deb.debian.org/debian";

/** The root file system's label: fstab and the boot loader find it by this, on any bus. */
export const CLOUD_GUEST_ROOT_LABEL = "debian-root";

/**
 * Packages on top of debootstrap's minbase. python3-cffi-backend is named because debootstrap does not
 * resolve virtual packages: python3-cryptography (cloud-init's dependency) needs the
 * python3-cffi-backend-api-* it provides, and the configuration fails without it.
 */
export const CLOUD_GUEST_PACKAGES: readonly string[] = [
  "systemd-sysv",
  "udev",
  "dbus",
  "systemd-resolved",
  "iproute2",
  "linux-image-cloud-amd64",
  "cloud-init",
  "python3-cffi-backend",
  "openssh-server",
  "qemu-guest-agent",
  "sudo",
];

/** Virtual size of the disk; the qcow2 holds only what is written (about 300 MiB). */
export const CLOUD_GUEST_DISK_SIZE_MIB = 2048;
/** The root partition starts 1 MiB in, as fdisk would put it. */
export const CLOUD_GUEST_PARTITION_OFFSET_BYTES = 1024 * 1024;

/**
 * The kernel command line the boot loader passes. The last console is /dev/console (systemd's status
 * and the serial getty go there); tty0 keeps a VNC console useful too.
 */
export const CLOUD_GUEST_KERNEL_ARGS = `root=LABEL=${CLOUD_GUEST_ROOT_LABEL} ro console=tty0 console=ttyS0,115200n8`;

/** Bumped by hand when a build step changes in a way the hashed code would not show (none so far). */
export const CLOUD_GUEST_SCRIPT_VERSION = 1;
