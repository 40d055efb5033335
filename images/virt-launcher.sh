#!/bin/sh
# virt-launcher: the VM's anchor in its pod. QEMU runs under the node's libvirt; the launcher holds
# the scheduler's reservation and lives as long as the VM. When the VM is on the pod network,
# virt-handler sets up the pod's side and then leaves the launcher its part in the network volume,
# which it carries out inside the pod (its network namespace, its resolv.conf) for as long as the
# pod lives, as KubeVirt's launcher does:
# - masquerade and bridge: the guest's DHCP answer (udhcpd.conf), served with busybox udhcpd;
# - passt: passt's arguments (passt.args, one a line), and the launcher becomes that passt.
# Under the dev cluster, container paths are found below $KUBEVIRT_TS_ROOT.
dir="${KUBEVIRT_TS_ROOT:-}/var/run/kubevirt-network"
[ -d "$dir" ] || exec sleep infinity
cd "$dir" || exit 1
while [ ! -e udhcpd.conf ] && [ ! -e passt.args ]; do sleep 0.2; done
if [ -e passt.args ]; then
  set --
  while IFS= read -r arg; do set -- "$@" "$arg"; done < passt.args
  exec passt "$@"
fi
# udhcpd is busybox too, a copy with the capabilities to serve port 67 (virt-launcher.Dockerfile),
# named by its path: busybox's sh would run its own capability-less applet for a bare `udhcpd`.
# Under the dev cluster (no image) the host's busybox serves.
if [ -x /usr/sbin/udhcpd ]; then exec /usr/sbin/udhcpd -f udhcpd.conf; fi
exec busybox udhcpd -f udhcpd.conf
