# virt-launcher: the VM's anchor pod holds the scheduler's reservation and only waits; QEMU runs
# under the node's libvirt. A static 20-line C program on an empty image: under 1 MB.
#   docker build -f images/virt-launcher.Dockerfile -t REGISTRY/virt-launcher:TAG .

FROM debian:12.11-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends gcc libc6-dev \
  && rm -rf /var/lib/apt/lists/*
COPY images/virt-launcher-pause.c /src/pause.c
RUN gcc -Os -static -s -Wall -Werror -o /pause /src/pause.c

FROM scratch
COPY --from=build /pause /pause
USER 65532:65532
ENTRYPOINT ["/pause"]
