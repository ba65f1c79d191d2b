#!/bin/sh
# Measures lockbench gate's false-alarm rate (A/A) and its detection rate for
# injected slowdowns on this machine, and prints the table docs/gate.md shows.
# Flags go to scripts/gatecal (e.g. --rounds 24 --trials 100); ~12 minutes.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -trimpath -o "$bin/lockbench" ./cmd/lockbench
go build -trimpath -o "$bin/gatecal" ./scripts/gatecal
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: scripts/gate-calibrate.sh $*"
"$bin/gatecal" --lockbench "$bin/lockbench" "$@"
