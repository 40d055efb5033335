# virt-launcher: the VM's anchor pod holds the scheduler's reservation and lives as long as the VM;
# QEMU runs under the node's libvirt. For a VM on the pod network it serves the guest's DHCP answer
# that virt-handler leaves in its network volume (images/virt-launcher.sh). A static busybox (sh,
# sleep, udhcpd) and the script on an empty image: about 2 MB.
#   docker build -f images/virt-launcher.Dockerfile -t REGISTRY/virt-launcher:TAG .
# udhcpd binds port 67: on a real cluster the compute container needs NET_BIND_SERVICE (not yet
# rendered; the dev cluster runs pods as root).

FROM debian:12.11-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends busybox-static \
  && rm -rf /var/lib/apt/lists/*
COPY images/virt-launcher.sh /src/virt-launcher.sh
RUN mkdir -p /out/links \
  && cp /bin/busybox /out/busybox \
  && for applet in sh sleep; do ln -s busybox /out/links/$applet; done \
  && install -m 0755 /src/virt-launcher.sh /out/virt-launcher

FROM scratch
COPY --from=build /out/busybox /bin/busybox
COPY --from=build /out/links/ /bin/
COPY --from=build /out/virt-launcher /usr/bin/virt-launcher
ENV PATH=/bin:/usr/bin
USER 65532:65532
ENTRYPOINT ["/bin/busybox", "sh", "/usr/bin/virt-launcher"]
