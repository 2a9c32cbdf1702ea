#!/usr/bin/env bash
# npm run test:electron: the Electron e2e and the staff PIN page test (test/electron/playwright.config.ts).
# Builds the app and provides a display only where the Electron binary exists; elsewhere the
# Electron tests skip and say why, and the PIN page test still runs in Chromium.
set -euo pipefail
cd "$(dirname "$0")/../.."

electron_dir=node_modules/electron
has_electron=no
if [ -n "${ELECTRON_OVERRIDE_DIST_PATH:-}" ]; then
  has_electron=yes
elif [ -f "$electron_dir/path.txt" ] && [ -e "$electron_dir/dist/$(cat "$electron_dir/path.txt")" ]; then
  has_electron=yes
fi

run=(bash test/keychain/run-with-secret-service.sh playwright test -c test/electron/playwright.config.ts "$@")
if [ "$has_electron" = yes ]; then
  npx electron-vite build
  # Electron needs a display: a virtual one when there is none.
  if [ -z "${DISPLAY:-}" ] && [ "$(uname)" = Linux ] && command -v xvfb-run >/dev/null; then
    run=(xvfb-run -a "${run[@]}")
  fi
fi
exec "${run[@]}"
