# virt-launcher: the VM's anchor pod holds the scheduler's reservation and lives as long as the VM;
# QEMU runs under the node's libvirt. For a VM on the pod network it serves the guest's DHCP answer
# that virt-handler leaves in its network volume (images/virt-launcher.sh). A static busybox (sh,
# sleep, udhcpd) and the script on an empty image: about 2 MB.
#   docker build -f images/virt-launcher.Dockerfile -t REGISTRY/virt-launcher:TAG .
# udhcpd binds port 67 and reads its interface through a raw socket, as user 65532: its own copy of
# busybox carries those two file capabilities (sh and sleep carry none), which the compute
# container's capability set allows (virt-controller adds NET_BIND_SERVICE and NET_RAW).

FROM debian:12.11-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends busybox-static libcap2-bin \
  && rm -rf /var/lib/apt/lists/*
COPY images/virt-launcher.sh /src/virt-launcher.sh
RUN mkdir -p /out/links \
  && cp /bin/busybox /out/busybox \
  && for applet in sh sleep; do ln -s busybox /out/links/$applet; done \
  && cp /bin/busybox /out/udhcpd \
  && setcap cap_net_bind_service,cap_net_raw+ep /out/udhcpd \
  && install -m 0755 /src/virt-launcher.sh /out/virt-launcher

FROM scratch
COPY --from=build /out/busybox /bin/busybox
COPY --from=build /out/links/ /bin/
COPY --from=build /out/udhcpd /usr/sbin/udhcpd
COPY --from=build /out/virt-launcher /usr/bin/virt-launcher
ENV PATH=/bin:/usr/bin:/usr/sbin
USER 65532:65532
ENTRYPOINT ["/bin/busybox", "sh", "/usr/bin/virt-launcher"]
