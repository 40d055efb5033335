# virt-handler: the node agent (VMIs → libvirt domains on the node's libvirt). Build from the
# repository root:
#   docker build -f images/virt-handler.Dockerfile -t REGISTRY/virt-handler:TAG .

FROM node:20.20.2-bookworm-slim AS build
# better-sqlite3 (a dependency of the dev cluster, installed by `npm ci`) compiles itself when
# its prebuilt binary cannot be downloaded.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npx tsc -p tsconfig.json && npm prune --omit=dev

FROM node:20.20.2-bookworm-slim
# libvirt0: libvirt.so.0, which libvirt/ loads through koffi (the node's libvirtd does the rest,
# through the socket in /var/run/libvirt). qemu-utils: qemu-img for VM overlays and empty disks;
# xorriso: cloud-init's NoCloud ISO; zstd: zstd-compressed containerDisk layers. qemu-system-x86:
# the boot probe that proves KVM works (node/kvm-boot-probe.ts boots the host's /boot kernel under
# /dev/kvm). nftables, iproute2 and procps (sysctl): the pod side of a VM's network, set up in
# the launcher pod's network namespace through nsenter. virt-handler never installs
# anything: without qemu-img or an ISO writer on PATH its node reports KubeVirtHostToolsMissing and
# is unschedulable for VMs (node/host-tools.ts).
RUN apt-get update \
  && apt-get install -y --no-install-recommends libvirt0 qemu-utils xorriso zstd qemu-system-x86 nftables iproute2 procps \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/kubevirt-ts
ENV NODE_ENV=production
# libvirt's event pump holds one libuv pool thread for the life of the process (virt-handler/main.ts).
ENV UV_THREADPOOL_SIZE=8
# package.json says "type": "module": without it node would read dist/ as CommonJS.
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
# What virt-handler/main.ts imports: itself, api/, runtime/, libvirt/, oci-registry/ and disk-image/.
COPY --from=build /src/dist/api ./dist/api
COPY --from=build /src/dist/runtime ./dist/runtime
COPY --from=build /src/dist/libvirt ./dist/libvirt
COPY --from=build /src/dist/oci-registry ./dist/oci-registry
COPY --from=build /src/dist/disk-image ./dist/disk-image
COPY --from=build /src/dist/virt-handler ./dist/virt-handler
# Root, as KubeVirt's virt-handler: it drives the node's libvirt and KVM and writes VM files
# under /var/lib/kubevirt-ts that root's QEMU opens (the DaemonSet makes it privileged).
ENTRYPOINT ["node", "/opt/kubevirt-ts/dist/virt-handler/main.js"]
