# mdq-export container image: `docker run IMAGE run /pipelines/demo.yaml`.
#
# Two stages: `build` installs every dependency, compiles TypeScript and bundles the CLI; the runtime stage holds only
# dist/ (the bundled CLI, every package inside it: no node_modules), the JSON Schema and the example pipelines, runs as a non-root
# user (numeric, so Kubernetes' runAsNonRoot can verify it) under tini, which forwards SIGTERM to the
# exporter (exit 75, resumable) and reaps children.
#
# The base is the current Node LTS on Debian bookworm. NODE_IMAGE may point at a mirror or a pinned
# digest (`--build-arg NODE_IMAGE=registry.example/node:24-bookworm-slim@sha256:...`).
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No package of ours needs an install script to build; skipping them keeps the build offline-friendly.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.mjs scripts/build-stamp.mjs ./scripts/
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE}
ARG NODE_IMAGE
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="mdq-export" \
      org.opencontainers.image.description="Stream-based exporter from the Monitoring Data Query Service to Parquet and NDJSON on disk, S3 or stdout." \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"

RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/dist ./dist
COPY package.json ./
COPY schema ./schema
COPY pipelines /pipelines

# Relative output paths (./out/...) land in /data, the one directory the exporter writes; mount a volume
# (or an emptyDir with a read-only root filesystem) there, or write to S3.
RUN mkdir -p /data && chown 1000:1000 /data
WORKDIR /data
# 1000 is the `node` user of the official Node images.
USER 1000:1000

# `run --metrics-port 9464` (or MDQ_METRICS_PORT=9464) serves Prometheus metrics here while a run lasts;
# MDQ_PUSHGATEWAY_URL pushes them instead. Both are off unless set (docs/operations.md).
EXPOSE 9464

ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/dist/cli/main.js"]
CMD ["--help"]
