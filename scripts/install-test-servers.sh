#!/usr/bin/env bash
# Runs before `npm test` (npm's pretest): the observability tests start a real Prometheus, promtool and
# Prometheus Pushgateway. Where they are missing and Debian's apt is at hand (as root, or with sudo),
# they are installed from Debian's packages, so the README's test command sets up a fresh machine by
# itself; elsewhere the script says what to install and stops.
set -euo pipefail

missing() {
  ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null ||
    { ! command -v prometheus-pushgateway >/dev/null && ! command -v pushgateway >/dev/null; }
}

missing || exit 0

if command -v apt-get >/dev/null; then
  as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      as_root=(sudo -n)
    else
      as_root=()
    fi
  fi
  if [ "$(id -u)" -eq 0 ] || [ ${#as_root[@]} -gt 0 ]; then
    echo "[pretest] installing Prometheus and the Prometheus Pushgateway from Debian for the observability tests" >&2
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends \
      prometheus prometheus-pushgateway >&2
    missing || exit 0
  fi
fi

cat >&2 <<'MESSAGE'
[pretest] the observability tests need prometheus, promtool and the Prometheus Pushgateway on PATH.
  Debian/Ubuntu: apt-get install -y prometheus prometheus-pushgateway
  macOS:         brew install prometheus pushgateway
MESSAGE
exit 1
