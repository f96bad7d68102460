#!/usr/bin/env bash
# Runs before `npm test` (npm's pretest): the observability tests start a real Prometheus, promtool and
# Prometheus Pushgateway, and the quota ledger's tests a throwaway PostgreSQL cluster (initdb, pg_ctl).
# Where they are missing and Debian's apt is at hand, the packages are
# downloaded (`apt-get download`) and unpacked (`dpkg -x`) into .test-servers/ in the project, where
# the tests find them: nothing is installed on the host, so no service is enabled or started and no
# port is opened. Elsewhere the script says what to install and stops.
#   MDQ_TEST_SERVERS_DIR    where to unpack (default: .test-servers in the project)
#   MDQ_TEST_SERVERS_FETCH  `always` unpacks even when the binaries are already on PATH
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${MDQ_TEST_SERVERS_DIR:-$root/.test-servers}"
packages=(prometheus prometheus-pushgateway)

has() { command -v "$1" >/dev/null || [ -x "$dir/usr/bin/$1" ]; }
# PostgreSQL's server programs live in a versioned folder, on PATH only through wrappers.
has_postgres() {
  { command -v initdb >/dev/null && command -v pg_ctl >/dev/null; } ||
    compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null ||
    compgen -G "$dir/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null
}
# The server package `postgresql` depends on (postgresql-15 on Debian 12), and its libraries.
postgres_packages() {
  local server
  server="$(apt-cache depends postgresql 2>/dev/null | sed -n 's/^ *Depends: \(postgresql-[0-9][0-9]*\)$/\1/p' | head -n 1)"
  [ -n "$server" ] && echo "$server postgresql-client-${server#postgresql-} libpq5"
}
missing_prometheus() {
  ! has prometheus || ! has promtool || { ! has prometheus-pushgateway && ! has pushgateway; }
}
missing() { missing_prometheus || ! has_postgres; }
unpacked() {
  [ -x "$dir/usr/bin/prometheus" ] && [ -x "$dir/usr/bin/promtool" ] && [ -x "$dir/usr/bin/prometheus-pushgateway" ] &&
    compgen -G "$dir/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null
}

if [ "${MDQ_TEST_SERVERS_FETCH:-}" = always ]; then unpacked && exit 0; else missing || exit 0; fi

if command -v apt-get >/dev/null && command -v dpkg >/dev/null; then
  # Package lists are needed to download; fetching them (as root, or with sudo) installs nothing.
  if ! apt-cache show "${packages[@]}" >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
      apt-get update -qq
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo -n apt-get update -qq
    fi
  fi
  if [ "${MDQ_TEST_SERVERS_FETCH:-}" = always ] || ! has_postgres; then
    # shellcheck disable=SC2207 # the names are plain package names
    packages+=($(postgres_packages))
  fi
  if [ "${MDQ_TEST_SERVERS_FETCH:-}" != always ] && ! missing_prometheus; then packages=("${packages[@]:2}"); fi
  if apt-cache show "${packages[@]}" >/dev/null 2>&1; then
    echo "[pretest] unpacking ${packages[*]} from Debian into ${dir} for the observability and quota ledger tests" >&2
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    # Downloaded as this user into its own folder (not as apt's sandbox user, which cannot write there).
    (cd "$work" && apt-get -qq -o APT::Sandbox::User="$(id -un)" download "${packages[@]}" >&2)
    mkdir -p "$dir"
    for deb in "$work"/*.deb; do dpkg -x "$deb" "$dir"; done
    missing || exit 0
    unpacked && exit 0
  fi
fi

cat >&2 <<'MESSAGE'
[pretest] the observability tests need prometheus, promtool and the Prometheus Pushgateway, and the
quota ledger tests PostgreSQL's initdb and pg_ctl, on PATH or unpacked into .test-servers/ (this script
does that where Debian's apt is at hand).
  Debian/Ubuntu: apt-get download prometheus prometheus-pushgateway postgresql-15 postgresql-client-15
                 libpq5, then dpkg -x each into .test-servers
  macOS:         brew install prometheus pushgateway postgresql
MESSAGE
exit 1
