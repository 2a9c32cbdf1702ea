#!/usr/bin/env bash
# The session bus daemon for scripts/start.mjs's private keyring (dbus-run-session --dbus-daemon=).
# dbus-daemon started by root always tries to raise its fd limit to 65536; in a container without
# CAP_SYS_RESOURCE (hard limit below that) it cannot, and warns on every start. That one warning is
# harmless for a private session bus and is dropped here; everything else the daemon says still
# reaches stderr, and exec keeps the daemon's pid for dbus-run-session to stop it.
exec dbus-daemon "$@" 2> >(
  # The filter must not hold the daemon's address pipe open: dbus-run-session reads it to its end.
  for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
  exec grep -v --line-buffered -F 'Failed to set fd limit' >&2
)
