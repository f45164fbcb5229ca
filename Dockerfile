# syntax=docker/dockerfile:1
#
# ONE image for every service (aggregator, core-api, extensions, sample-apiserver) and the helper scripts;
# the container's command chooses what runs, e.g.
#   docker run … kube-ts node dist/apps/core-api/src/main.js
# Why one image: the services share ~all their code (libs/) and all their dependencies, `npm run build`
# compiles them in one pass, and one image means one build, one scan, one tag to roll out, and no chance of
# running an aggregator and a core-api built from different commits. The per-app size saving of separate
# images would be a few hundred KiB of compiled JavaScript. See docs/deployment.md.
#
# There is no HEALTHCHECK here: each service listens on its own port, so docker-compose.yml and the Helm
# chart set the probe per service (node dist/scripts/healthcheck.js, since the image has no curl).

ARG NODE_IMAGE=node:20.20-bookworm-slim

# ---- build: dev dependencies + swc, then `npm run build` → dist/ ------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# tools/ holds the prebuild hook (ensure-deps) that `npm run build` runs.
COPY package.json package-lock.json ./
COPY tools ./tools
# `npm ci` refuses lock files that lack optional platform packages (e.g. @swc/core builds for other OSes)
# the registry does not serve; `npm install` then resolves them (same fallback as .ci/run).
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY .swcrc tsconfig.json nest-cli.json ./
COPY apps ./apps
COPY libs ./libs
COPY scripts ./scripts
COPY bench ./bench
RUN npm run build

# ---- prod-deps: runtime dependencies only -----------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /src
COPY package.json package-lock.json ./
# No runtime dependency needs an install script (all pure JavaScript), so none runs.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund || npm install --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime ----------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Code and dependencies stay owned by root: the service user can read, not modify them.
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist/apps ./dist/apps
COPY --from=build /src/dist/libs ./dist/libs
COPY --from=build /src/dist/scripts ./dist/scripts
COPY package.json ./
# /pki is where docker-compose mounts the generated certificates; a fresh named volume copies this folder's
# owner, so the `node` user can read the keys (0600) there.
RUN mkdir -p /pki && chown node:node /pki
# The `node` user (uid 1000) of the official image; numeric so that runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 6443 6444 6445 6446
# Node handles SIGTERM itself (the apps call enableShutdownHooks), so it can run as PID 1 without an init.
CMD ["node", "dist/apps/aggregator/src/main.js"]
