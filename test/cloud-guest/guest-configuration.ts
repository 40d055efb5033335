// The shell script that turns debootstrap's tree into a cloud image. It runs inside the tree with chroot,
// before the tree becomes the disk; each block says why it is there.
import {
  CLOUD_GUEST_KERNEL_ARGS,
  CLOUD_GUEST_MIRROR,
  CLOUD_GUEST_ROOT_LABEL,
  CLOUD_GUEST_SUITE,
} from "./cloud-guest-recipe.js";

/** Units that only cost boot time or wake up later to touch the network or the disk. */
const MASKED_UNITS = [
  "apt-daily.timer",
  "apt-daily-upgrade.timer",
  "apt-daily.service",
  "apt-daily-upgrade.service",
  "dpkg-db-backup.timer",
  "e2scrub_all.timer",
  "e2scrub_reap.service",
  "systemd-pstore.service",
];

export function guestConfigurationScript(): string {
  return `set -eu
export DEBIAN_FRONTEND=noninteractive LC_ALL=C

# The root file system by its label, whatever bus the disk is on; no swap.
printf 'LABEL=${CLOUD_GUEST_ROOT_LABEL} / ext4 defaults,noatime,errors=remount-ro 0 1\\n' > /etc/fstab

# Every instance gets its own machine id (made at first boot) and its hostname from cloud-init.
: > /etc/machine-id
rm -f /var/lib/dbus/machine-id
echo localhost > /etc/hostname
printf '127.0.0.1 localhost\\n::1 localhost ip6-localhost ip6-loopback\\n' > /etc/hosts

# Nobody logs in as root with a password: users come from cloud-init.
passwd -l root >/dev/null

# cloud-init: only the data sources KubeVirt provides (ds-identify reads this single-line list);
# systemd-networkd renders the network (it is part of systemd); host keys of the types that are quick
# to make under emulation (RSA takes many seconds under TCG). The module lists (they replace Debian's)
# leave out what this image cannot use (snap, lxd, fan, landscape, puppet, chef, salt, grub, RMC,
# byobu) and the locale step (there is no locales package: update-locale fails and marks cloud-config
# failed): each module costs an import, which is slow under emulation.
cat > /etc/cloud/cloud.cfg.d/90-kubevirt-ts.cfg <<'CFG'
datasource_list: [ NoCloud, ConfigDrive ]
ssh_genkeytypes: [ ed25519, ecdsa ]
system_info:
  network:
    renderers: [ networkd ]
cloud_init_modules:
  - migrator
  - seed_random
  - bootcmd
  - write-files
  - growpart
  - resizefs
  - disk_setup
  - mounts
  - set_hostname
  - update_hostname
  - update_etc_hosts
  - ca-certs
  - users-groups
  - ssh
cloud_config_modules:
  - ssh-import-id
  - keyboard
  - set-passwords
  - apt-pipelining
  - apt-configure
  - ntp
  - timezone
  - runcmd
cloud_final_modules:
  - package-update-upgrade-install
  - write-files-deferred
  - scripts-vendor
  - scripts-per-once
  - scripts-per-boot
  - scripts-per-instance
  - scripts-user
  - ssh-authkey-fingerprints
  - keys-to-console
  - phone-home
  - final-message
  - power-state-change
CFG

# DHCP on any wired NIC when cloud-init renders nothing (no data source: cloud-init stays disabled).
# cloud-init's own files (10-cloud-init-*.network) sort first and win.
cat > /etc/systemd/network/99-dhcp-fallback.network <<'NET'
[Match]
Name=en* eth*

[Network]
DHCP=yes
NET
systemctl enable systemd-networkd.service systemd-resolved.service >/dev/null
ln -sf /run/systemd/resolve/stub-resolv.conf /etc/resolv.conf

# network-online.target (cloud-config waits for it) needs one configured link, not all of them.
mkdir -p /etc/systemd/system/systemd-networkd-wait-online.service.d
cat > /etc/systemd/system/systemd-networkd-wait-online.service.d/10-any.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/lib/systemd/systemd-networkd-wait-online --any --timeout=30
UNIT

# Host keys are made at the first boot, never shipped in the image: cloud-init's ssh module makes them
# (it runs before ssh.service); the script covers a boot without a data source. Only ed25519 and ECDSA.
rm -f /etc/ssh/ssh_host_*
printf 'HostKey /etc/ssh/ssh_host_ed25519_key\nHostKey /etc/ssh/ssh_host_ecdsa_key\n' \
  > /etc/ssh/sshd_config.d/10-host-keys.conf
cat > /usr/local/sbin/ssh-host-keys <<'SH'
#!/bin/sh
for type in ed25519 ecdsa; do
  key=/etc/ssh/ssh_host_\${type}_key
  [ -s "$key" ] || ssh-keygen -q -t "$type" -N "" -f "$key"
done
SH
chmod 755 /usr/local/sbin/ssh-host-keys
mkdir -p /etc/systemd/system/ssh.service.d
cat > /etc/systemd/system/ssh.service.d/10-host-keys.conf <<'UNIT'
[Service]
ExecStartPre=
ExecStartPre=/usr/local/sbin/ssh-host-keys
ExecStartPre=/usr/sbin/sshd -t
UNIT
systemctl enable ssh.service >/dev/null

# qemu-guest-agent has no [Install]: its udev rule starts it when the virtio-serial port
# org.qemu.guest_agent.0 appears. Fail the build if that rule is gone.
test -f /usr/lib/udev/rules.d/60-qemu-guest-agent.rules

systemctl mask ${MASKED_UNITS.join(" ")} >/dev/null

# The boot loader's configuration; extlinux itself is installed on the finished file system.
kernel=$(cd /boot && ls vmlinuz-* | sort -V | tail -n 1)
version=\${kernel#vmlinuz-}
test -f "/boot/initrd.img-$version"
mkdir -p /boot/extlinux
cat > /boot/extlinux/extlinux.conf <<CONF
DEFAULT debian
PROMPT 0
TIMEOUT 1
LABEL debian
  LINUX /boot/vmlinuz-$version
  INITRD /boot/initrd.img-$version
  APPEND ${CLOUD_GUEST_KERNEL_ARGS}
CONF

# debootstrap wrote only the release itself; a VM also wants its updates and security fixes.
cat > /etc/apt/sources.list <<'APT'
deb ${CLOUD_GUEST_MIRROR} ${CLOUD_GUEST_SUITE} main
deb ${CLOUD_GUEST_MIRROR} ${CLOUD_GUEST_SUITE}-updates main
deb http://security.debian.org/debian-security ${CLOUD_GUEST_SUITE}-security main
APT

# What an image does not need: downloaded packages, package lists, documentation, translations, logs.
apt-get clean
rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/* /usr/share/info/* /usr/share/locale/*
rm -rf /var/log/*.log /var/log/apt/* /var/cache/debconf/*-old /debootstrap /tmp/* /var/tmp/*
find /var/log -type f -name '*.log' -delete
`;
}
