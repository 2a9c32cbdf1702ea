#!/usr/bin/env bash
# Runs a command against a real, throwaway Secret Service: a private D-Bus session bus with
# gnome-keyring unlocked by a fixed password, in a temporary HOME that is removed afterwards.
# usage: bash test/keychain/run-with-secret-service.sh <command> [args...]
set -euo pipefail
for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "keychain tests need $tool (Debian: dbus, gnome-keyring); run scripts/setup.sh" >&2; exit 1; }
done
keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
mkdir -m 700 "$keyring_home/run"
env HOME="$keyring_home" XDG_DATA_HOME="$keyring_home/.local/share" XDG_RUNTIME_DIR="$keyring_home/run" \
  dbus-run-session -- bash -c '
    # The password must be non-empty, or the login keyring is created locked.
    printf %s kiosk-test-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec npx "$@"' bash "$@"
