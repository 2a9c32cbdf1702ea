#!/usr/bin/env bash
# Sets a Debian/Ubuntu machine up for the kiosk: the system packages it needs (only those missing),
# then the npm dependencies. Safe to run again. Used by the README's commands and by CI.
set -euo pipefail
cd "$(dirname "$0")/.."

# chromium: browser tests and the web host; ffmpeg: the fake-webcam fixture; libsecret-1-dev,
# python3, make, g++: building keytar; gnome-keyring + dbus: a real Secret Service for tests;
# xvfb + xauth: a virtual display for headed runs; postgresql-15 + haproxy + openssl: `npm run site`
# (the engines' database, the front with its health checks) and its tests (a self-signed certificate);
# poppler-utils: tests read a printed badge's PDF back (pdftotext, pdftoppm); patroni + etcd-server
# (+ python3-etcd, patroni's etcd client): `npm run site -- --ha`, two PostgreSQL nodes that fail over.
packages=(chromium ffmpeg libsecret-1-dev gnome-keyring dbus xvfb xauth python3 make g++ postgresql-15 haproxy openssl poppler-utils patroni python3-etcd etcd-server)

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # Debian's etcd-server starts a system-wide etcd: `npm run site -- --ha` runs its own.
  if [[ " ${missing[*]} " == *" etcd-server "* ]] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    "${sudo[@]}" systemctl disable --now etcd >/dev/null 2>&1 || true
  fi
fi

npm ci --no-audit --no-fund
