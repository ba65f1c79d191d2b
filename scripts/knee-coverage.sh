#!/bin/sh
# Measures how often a rerun's knee falls inside a sweep's knee_interval:
# the same sweep --runs times on this machine (scripts/kneecov). Flags
# before -- go to kneecov, those after it to lockbench sweep, e.g.
#   scripts/knee-coverage.sh --runs 11 -- --slo 20ms --muxes pipeline --client goredis
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -trimpath -o "$bin/lockbench" ./cmd/lockbench
go build -trimpath -o "$bin/kneecov" ./scripts/kneecov
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: scripts/knee-coverage.sh $*; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin/kneecov" --lockbench "$bin/lockbench" "$@"
