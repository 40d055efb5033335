# cdi-importer: fills a DataVolume's claim (/data/disk.img) from http, a registry, another claim or
# nothing (cdi-importer/README.md). Build from the repository root:
#   docker build -f images/cdi-importer.Dockerfile -t REGISTRY/cdi-importer:TAG .

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
# qemu-img converts a checked qcow2 to raw; xz unpacks .xz images on a pipe; zstd unpacks
# zstd-compressed registry layers. The importer never installs anything.
RUN apt-get update \
  && apt-get install -y --no-install-recommends qemu-utils xz-utils zstd \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/kubevirt-ts
ENV NODE_ENV=production
# package.json says "type": "module": without it node would read dist/ as CommonJS.
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
# What cdi-importer/main.ts imports: itself, the registry and image libraries, runtime/'s logger and quantities.
COPY --from=build /src/dist/runtime ./dist/runtime
COPY --from=build /src/dist/oci-registry ./dist/oci-registry
COPY --from=build /src/dist/disk-image ./dist/disk-image
COPY --from=build /src/dist/cdi-importer ./dist/cdi-importer
# It writes only the claim mounted at /data: no root.
USER 65532:65532
ENTRYPOINT ["node", "/opt/kubevirt-ts/dist/cdi-importer/main.js"]
