#!/usr/bin/env bash
# Runs a command with N CPU-bound busy loops beside it (default: one per core), then stops them.
# Shows that the tests wait on states, not on wall-clock budgets: `npm test` must pass under it.
#   N=2 bash scripts/with-cpu-hog.sh npm test
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: N=<loops> $0 <command> [args…]" >&2
  exit 2
fi
n="${N:-$(nproc)}"
pids=()
stop_hogs() {
  # Only the loops this script started, by their ids.
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop_hogs EXIT
for _ in $(seq 1 "$n"); do
  node -e 'for (;;) {}' &
  pids+=("$!")
done
echo "with-cpu-hog: ${n} busy loop(s) running (pids ${pids[*]})" >&2
status=0
"$@" || status=$?
echo "with-cpu-hog: command exited with ${status}" >&2
exit "$status"
