# Base images made on this machine, for builds where no image registry is reachable (scripts/build-image.ts).
# DEBIAN_IMAGE is a Debian root filesystem made with `debootstrap --variant=minbase` and `docker import`ed;
# the build context holds the Node and npm packages from the npm registry (node-linux-<arch>, npm).
#
#   node: stands in for node:<version>-<release>-slim (the Dockerfile's NODE_IMAGE): node and npm in
#         /usr/local, the `node` user (uid 1000).
#   etcd, nats: stand in for the compose file's etcd and NATS images, from Debian's packages (etcd-server and
#         etcd-client, nats-server; wget for the NATS healthcheck as in the alpine image).
ARG DEBIAN_IMAGE

FROM ${DEBIAN_IMAGE} AS node
RUN --mount=type=bind,target=/context \
    tar -xzf /context/node.tgz -C /usr/local/bin --strip-components=2 package/bin/node \
 && mkdir -p /usr/local/lib/node_modules/npm \
 && tar -xzf /context/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]

FROM ${DEBIAN_IMAGE} AS etcd
RUN apt-get update && apt-get install -y --no-install-recommends etcd-server etcd-client \
 && apt-get clean && rm -rf /var/lib/apt/lists/* && etcd --version
CMD ["etcd"]

FROM ${DEBIAN_IMAGE} AS nats
RUN apt-get update && apt-get install -y --no-install-recommends nats-server wget \
 && apt-get clean && rm -rf /var/lib/apt/lists/* && nats-server --version
CMD ["nats-server"]
