#!/bin/sh
# virt-launcher: the VM's anchor in its pod. QEMU runs under the node's libvirt; the launcher holds
# the scheduler's reservation and lives as long as the VM. When the VM is on the pod network
# (masquerade), virt-handler sets up the pod's side (bridge, tap, NAT) and then leaves the guest's
# DHCP answer in the network volume: from then on the launcher serves it, inside the pod's network
# namespace, for as long as the pod lives (KubeVirt's launcher runs its DHCP server the same way).
# Under the dev cluster, container paths are found below $KUBEVIRT_TS_ROOT.
dir="${KUBEVIRT_TS_ROOT:-}/var/run/kubevirt-network"
[ -d "$dir" ] || exec sleep infinity
cd "$dir" || exit 1
while [ ! -e udhcpd.conf ]; do sleep 0.2; done
exec busybox udhcpd -f udhcpd.conf
