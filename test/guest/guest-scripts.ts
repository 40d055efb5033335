// The test guest's init scripts and configuration files. Stage 1 (`/init`, initramfs only) loads the drivers
// and switches to the root disk when the kernel command line names one; stage 2 (busybox init with
// `/etc/inittab`, on whichever root is in use) mounts what it needs, arms the power button, echoes the
// cloud-init NoCloud data, applies its SSH keys, starts the SSH server (root disk only), prints the
// banner and runs a shell on ttyS0.
import {
  CIDATA_FILES,
  cidataBeginMarker,
  cidataEndMarker,
  TEST_GUEST_BANNER,
  TEST_GUEST_PROMPT,
  TEST_GUEST_SHUTDOWN_MESSAGE,
  TEST_GUEST_STATUS_PREFIX,
} from "./guest-console.js";

/** The virtio-serial port qemu-ga opens (the converter's guest agent channel). */
const GUEST_AGENT_PORT = "org.qemu.guest_agent.0";

export interface GuestFile {
  /** Path inside the guest, without a leading slash. */
  path: string;
  content: string;
  mode: number;
}

/** Where stage 1 finds the modules to load: one `name [parameters…]` per line, dependencies first. */
export const MODULE_LOAD_ORDER_FILE = "lib/modules/load-order";

const STAGE1_INIT = `#!/bin/sh
# Stage 1 (initramfs): load the drivers, then switch to the root disk if the kernel command line names one
# (root=/dev/vda or root=LABEL=...). Without one, or when it cannot be mounted, stay in the initramfs.
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
while read -r module parameters; do
  insmod "/lib/modules/$module.ko" $parameters || echo "init: cannot load $module"
done < /${MODULE_LOAD_ORDER_FILE}
root=
for arg in $(cat /proc/cmdline); do
  case "$arg" in root=*) root="\${arg#root=}" ;; esac
done
if [ -n "$root" ]; then
  device=
  for attempt in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    case "$root" in
      /dev/*) [ -b "$root" ] && device="$root" ;;
      *) device=$(findfs "$root" 2>/dev/null) ;;
    esac
    [ -n "$device" ] && break
    sleep 0.1
  done
  if [ -n "$device" ] && { mount -t ext4 "$device" /newroot || mount -t ext4 -o ro "$device" /newroot; }; then
    mount --move /dev /newroot/dev
    mount --move /proc /newroot/proc
    mount --move /sys /newroot/sys
    exec switch_root /newroot /sbin/init
  fi
  echo "init: cannot mount the root file system $root; staying in the initramfs"
fi
exec /sbin/init
`;

const INITTAB = `::sysinit:/etc/init.d/rcS
ttyS0::respawn:-/bin/sh
::ctrlaltdel:/sbin/reboot
::shutdown:/etc/init.d/rcK
`;

function cidataEcho(): string {
  return CIDATA_FILES.map(
    (file) => `  if [ -f /run/cidata/${file} ]; then
    echo "${cidataBeginMarker(file)}"
    cat /run/cidata/${file}
    echo
    echo "${cidataEndMarker(file)}"
  fi`,
  ).join("\n");
}

// The banner comes last: a test that has seen it knows the power button is armed.
const RC_START = `#!/bin/sh
# Stage 2 (busybox init's sysinit), on the initramfs or on the root disk.
export PATH=/bin:/sbin
[ -c /dev/ttyS0 ] && exec >/dev/ttyS0 2>&1 </dev/null
grep -q ' /proc ' /proc/mounts 2>/dev/null || mount -t proc proc /proc
grep -q ' /sys ' /proc/mounts || mount -t sysfs sys /sys
grep -q ' /dev ' /proc/mounts || mount -t devtmpfs dev /dev
mount -t tmpfs -o mode=0755 run /run
mkdir -p /run/cidata
acpid -l /run/acpid.log -p /run/acpid.pid || echo "rcS: acpid did not start: the power button will not work"
hostname guest
cidata=$(findfs LABEL=cidata 2>/dev/null)
if [ -n "$cidata" ] && mount -t iso9660 -o ro "$cidata" /run/cidata; then
${cidataEcho()}
  name=$(sed -n 's/^local-hostname:[ "]*\\([^ "]*\\).*/\\1/p' /run/cidata/meta-data 2>/dev/null)
  [ -n "$name" ] && hostname "$name"
  /etc/init.d/ssh-keys /run/cidata
fi
ip link set lo up
mkdir -p /run/www
hostname > /run/www/index.html
# The network, when the VM has one: DHCP for as long as the guest runs (retried until a server
# answers, so it does not hold up the boot), and an HTTP server on port 80 that answers with the
# guest's hostname (the one DHCP gave, once it has). Both log to /run, not to the console.
if ip link show eth0 >/dev/null 2>&1; then
  ip link set eth0 up
  udhcpc -i eth0 -f -t 0 -T 2 -A 1 -O staticroutes -s /etc/udhcpc.script >/run/udhcpc.log 2>&1 &
fi
httpd -p 80 -h /run/www
# The SSH server (on the root disk only): host keys are made at the first connection, passwords are
# refused (keys only), and it logs to /run.
if [ -x /usr/sbin/dropbear ]; then
  mkdir -p /dev/pts
  grep -q ' /dev/pts ' /proc/mounts || mount -t devpts -o gid=5,mode=620 devpts /dev/pts
  /usr/sbin/dropbear -F -E -R -s -p 22 >/run/dropbear.log 2>&1 &
fi
# The QEMU guest agent (on the root disk only), on the virtio-serial port libvirt calls
# org.qemu.guest_agent.0. There is no udev: the /dev/virtio-ports/<name> links it would make are made
# here from sysfs (devtmpfs has made the /dev/vportNpM nodes).
mkdir -p /dev/virtio-ports
for port in /sys/class/virtio-ports/*; do
  [ -f "$port/name" ] && ln -sf "/dev/\${port##*/}" "/dev/virtio-ports/$(cat "$port/name")"
done
if [ -x /usr/sbin/qemu-ga ] && [ -e /dev/virtio-ports/${GUEST_AGENT_PORT} ]; then
  /usr/sbin/qemu-ga -m virtio-serial -p /dev/virtio-ports/${GUEST_AGENT_PORT} -t /run -l /run/qemu-ga.log &
fi
root=$(awk '$2 == "/" { device = $1 } END { print device }' /proc/mounts)
[ "$root" = rootfs ] && root=initramfs
echo "${TEST_GUEST_STATUS_PREFIX}root=$root cidata=\${cidata:-none}"
echo "${TEST_GUEST_BANNER}"
`;

/**
 * What cloud-init's ssh module does for the guest's only user, root: the keys of NoCloud's meta-data
 * `public-keys` (where KubeVirt puts spec.accessCredentials) and of a #cloud-config user-data's
 * \`ssh_authorized_keys\` become /root/.ssh/authorized_keys. The YAML is read only as far as these
 * two entries go: each line of the entry that, unquoted and without its list dash or map key, starts
 * like an OpenSSH public key is one.
 */
const SSH_KEYS = `#!/bin/sh
# Usage: ssh-keys CIDATA-DIR
dir="$1"
keys_of() {
  awk -v want="$1" '
    function emit(text) {
      sub(/^[ \\t]*(- *)?/, "", text)
      sub(/^"?[A-Za-z0-9_-]+"?:[ \\t]*/, "", text)
      sub(/^["\\047]/, "", text); sub(/["\\047][ \\t]*$/, "", text)
      if (text ~ /^(ssh-[a-z0-9-]+|ecdsa-sha2-[a-z0-9]+|sk-[a-z0-9@.-]+) [A-Za-z0-9+\\/]+=*( |$)/) print text
    }
    /^[^ \\t#-]/ {
      name = $0; sub(/:.*/, "", name); gsub(/"/, "", name)
      inside = (name == want)
      if (inside) { rest = $0; sub(/^[^:]*:/, "", rest); emit(rest) }
      next
    }
    inside { emit($0) }
  '
}
keys=$(
  [ -f "$dir/meta-data" ] && keys_of public-keys < "$dir/meta-data"
  head -n 1 "$dir/user-data" 2>/dev/null | grep -q '^#cloud-config' && keys_of ssh_authorized_keys < "$dir/user-data"
)
[ -n "$keys" ] || exit 0
umask 077
mkdir -p /root/.ssh
printf '%s\\n' "$keys" > /root/.ssh/authorized_keys
echo "ssh-keys: $(printf '%s\\n' "$keys" | wc -l) authorized keys for root"
`;

const RC_STOP = `#!/bin/sh
# Runs on poweroff and reboot, before busybox init kills the remaining processes.
[ -c /dev/ttyS0 ] && exec >/dev/ttyS0 2>&1
echo "${TEST_GUEST_SHUTDOWN_MESSAGE}"
sync
umount -a -r 2>/dev/null
exit 0
`;

/**
 * busybox acpid runs /etc/acpi/PWRF/00000080 for the power button (its built-in event map). It shuts down
 * itself rather than through busybox init, whose shutdown sleeps 2 s between signals; nothing runs here
 * that needs a signal to stop cleanly.
 */
const POWER_BUTTON_ACTION = `#!/bin/sh
/etc/init.d/rcK
exec poweroff -f
`;

/** busybox udhcpc's hook: applies the lease (address, MTU, default and static routes, DNS, hostname). */
const UDHCPC_SCRIPT = `#!/bin/sh
case "$1" in
  deconfig)
    ip -4 addr flush dev "$interface"
    ip link set "$interface" up
    ;;
  bound|renew)
    ip -4 addr flush dev "$interface"
    ip addr add "$ip/\${mask:-24}" dev "$interface"
    [ -n "$mtu" ] && ip link set "$interface" mtu "$mtu"
    for gateway in $router; do ip route replace default via "$gateway" dev "$interface"; break; done
    # Option 121 (classless static routes), pairs of destination and gateway.
    set -- $staticroutes
    while [ $# -ge 2 ]; do ip route replace "$1" via "$2" dev "$interface"; shift 2; done
    {
      [ -n "$search" ] && echo "search $search"
      for server in $dns; do echo "nameserver $server"; done
    } > /etc/resolv.conf 2>/dev/null
    [ -n "$hostname" ] && hostname "$hostname"
    # Renamed into place: httpd never serves a half-written (empty) page.
    hostname > /run/www/index.html.new && mv /run/www/index.html.new /run/www/index.html
    echo "udhcpc: $interface $ip/\${mask:-24} router=$router hostname=$hostname"
    ;;
esac
exit 0
`;

const PROFILE = `export PATH=/bin:/sbin
export PS1='${TEST_GUEST_PROMPT}'
`;

/** What the guest agent reports as the guest's OS (guest-get-osinfo reads it). */
export const TEST_GUEST_OS_ID = "kubevirt-ts-test-guest";
const OS_RELEASE = `ID=${TEST_GUEST_OS_ID}
NAME="kubevirt-ts test guest"
PRETTY_NAME="kubevirt-ts test guest 1"
VERSION="1"
VERSION_ID="1"
`;

/** The files of stage 2; they go on the root disk and into the initramfs. */
export function stage2Files(): GuestFile[] {
  return [
    { path: "etc/inittab", content: INITTAB, mode: 0o644 },
    { path: "etc/init.d/rcS", content: RC_START, mode: 0o755 },
    { path: "etc/init.d/rcK", content: RC_STOP, mode: 0o755 },
    { path: "etc/init.d/ssh-keys", content: SSH_KEYS, mode: 0o755 },
    { path: "etc/acpi/PWRF/00000080", content: POWER_BUTTON_ACTION, mode: 0o755 },
    { path: "etc/profile", content: PROFILE, mode: 0o644 },
    { path: "etc/udhcpc.script", content: UDHCPC_SCRIPT, mode: 0o755 },
    { path: "etc/passwd", content: "root:x:0:0:root:/root:/bin/sh\n", mode: 0o644 },
    { path: "etc/group", content: "root:x:0:\ntty:x:5:\n", mode: 0o644 },
    { path: "etc/shells", content: "/bin/sh\n", mode: 0o644 },
    { path: "etc/os-release", content: OS_RELEASE, mode: 0o644 },
  ];
}

/** The initramfs-only stage 1. */
export function stage1Files(moduleLoadOrder: string): GuestFile[] {
  return [
    { path: "init", content: STAGE1_INIT, mode: 0o755 },
    { path: MODULE_LOAD_ORDER_FILE, content: moduleLoadOrder, mode: 0o644 },
  ];
}
