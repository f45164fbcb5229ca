# ONE image for every service (aggregator, core-api, extensions, sample-apiserver, counts-apiserver) and the two
# helper scripts compose runs (generate-pki, healthcheck); the container's command chooses what runs, e.g.
#   docker run … kube-ts:dev node dist/apps/core-api/src/main.js
# Why one image: the services share ~all their code (libs/) and all their dependencies, `npm run build`
# compiles them in one pass, and one image means one build, one scan, one tag to roll out, and no chance of
# running an aggregator and a core-api built from different commits. See docs/deployment.md.
#
# Build it with `npm run image` (scripts/build-image.ts): BuildKit is required (secret and cache mounts), and
# where no image registry is reachable the script makes NODE_IMAGE and BASE_IMAGE locally (debootstrap).
# No `# syntax=` line on purpose: it would make BuildKit pull the Dockerfile frontend from a registry.
#
# There is no HEALTHCHECK here: each service listens on its own port, so docker-compose.yml and the Helm
# chart set the probe per service (node dist/scripts/healthcheck.js, since the image has no curl).

# Build stages: Node with npm. The runtime stage takes only the `node` binary from it.
ARG NODE_IMAGE=node:20.20-bookworm-slim
# The runtime's operating system: the same Debian release NODE_IMAGE is built on.
ARG BASE_IMAGE=debian:bookworm-slim

# ---- build: dev dependencies + swc, then `npm run build` → dist/ ------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# tools/ holds the prebuild hook (ensure-deps) that `npm run build` runs.
COPY package.json package-lock.json ./
COPY tools ./tools
# npm must trust the CA of a TLS-inspecting proxy on some networks: the build passes that bundle as the
# secret `npm_ca` (never a layer: a secret mount is not part of any image). Registry and proxy settings come
# in as build args (NPM_CONFIG_REGISTRY; HTTPS_PROXY & co. are predefined and left out of the history).
# `npm ci` refuses lock files that lack optional platform packages (e.g. @swc/core builds for other OSes)
# the registry does not serve; `npm install` then resolves them (same fallback as .ci/run).
ARG NPM_CONFIG_REGISTRY=https://registry.npmjs.org/
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY .swcrc tsconfig.json nest-cli.json ./
COPY apps ./apps
COPY libs ./libs
COPY scripts ./scripts
COPY bench ./bench
# libs/testing (the test kit) is compiled for the scripts but never shipped.
RUN npm run build && rm -rf dist/libs/testing

# ---- prod-deps: runtime dependencies only -----------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /src
COPY package.json package-lock.json ./
ARG NPM_CONFIG_REGISTRY=https://registry.npmjs.org/
# No runtime dependency needs an install script (all pure JavaScript), so none runs. Type declarations and
# source maps are for editors and debuggers, never loaded: removing them halves node_modules (~90 → ~30 MB).
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    { npm ci --omit=dev --ignore-scripts --no-audit --no-fund || npm install --omit=dev --ignore-scripts --no-audit --no-fund; } \
 && find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' \) -delete

# ---- runtime: Debian + the node binary + dist + production node_modules; no npm, no build or test tools ----
FROM ${BASE_IMAGE} AS runtime
# The `node` user (uid 1000) as in the official Node images; numeric USER below so runAsNonRoot can verify it.
# /pki is where docker-compose mounts the generated certificates; a fresh named volume copies this folder's
# owner, so the `node` user can read the keys (0600) there.
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/sh --create-home node \
 && mkdir -p /pki && chown node:node /pki
COPY --from=build /usr/local/bin/node /usr/local/bin/node
ENV NODE_ENV=production
WORKDIR /app
# Code and dependencies stay owned by root: the service user can read, not modify them. Of the scripts only
# those compose and the chart run (generate-pki, etcd-auth, healthcheck; kms-plugin, the example KMS v2 plugin) and what they import; the development
# ones (start, ensure-binaries, new-apiserver, build-image) stay out.
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist/apps ./dist/apps
COPY --from=build /src/dist/libs ./dist/libs
# kube's generated.proto files: the protobuf codec loads them on first use (application/vnd.kubernetes.protobuf).
COPY api/proto ./api/proto
COPY --from=build /src/dist/scripts/generate-pki.js /src/dist/scripts/encryption-config.js /src/dist/scripts/local-aggregated-servers.js /src/dist/scripts/etcd-access.js /src/dist/scripts/etcd-auth.js /src/dist/scripts/healthcheck.js /src/dist/scripts/kms-plugin.js /src/dist/scripts/tcp-balancer.js ./dist/scripts/
# kube's KMS v2 gRPC API (v2.KeyManagementService), loaded at run time by a server with a kms provider and by kms-plugin.js.
COPY api/proto/k8s.io/kms ./api/proto/k8s.io/kms
COPY package.json ./
USER 1000:1000
EXPOSE 6443 6444 6445 6446 6447
# Node handles SIGTERM itself (the apps call enableShutdownHooks), so it can run as PID 1 without an init.
CMD ["node", "dist/apps/aggregator/src/main.js"]
