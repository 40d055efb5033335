# virt-operator: the KubeVirt CR → everything else. Build from the repository root:
#   docker build -f images/virt-operator.Dockerfile -t REGISTRY/virt-operator:TAG .

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
WORKDIR /opt/kubevirt-ts
ENV NODE_ENV=production
# package.json says "type": "module": without it node would read dist/ as CommonJS.
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
# What virt-operator/main.ts imports: itself, api/ and runtime/.
COPY --from=build /src/dist/api ./dist/api
COPY --from=build /src/dist/runtime ./dist/runtime
COPY --from=build /src/dist/virt-operator ./dist/virt-operator
# It only talks to the API server: no root, no capabilities (the Deployment drops them all).
USER 65532:65532
ENTRYPOINT ["node", "/opt/kubevirt-ts/dist/virt-operator/main.js"]
