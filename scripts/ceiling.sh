#!/usr/bin/env bash
# ceiling.sh — what N Redis masters can do with Redlock's command mix when no
# lock logic is in the way: redis-benchmark on every master at once, pipelined
# 16 deep, first the acquire (SET key tok NX PX ttl), then the release
# (EVALSHA of lockbench's compare-and-delete script). A lock cycle costs N
# SETs and N releases of the aggregate capacity, so
#
#   ceiling cycles/s = 1 / (N × (1/agg_set + 1/agg_release))
#
# Usage: scripts/ceiling.sh host:port [host:port ...]
#        (lockbench compare --ceiling measures the same in the same run)
# Env:   REQUESTS (per master per command, default 200000), CLIENTS (50),
#        PIPELINE (16), TTL_MS (30000).
set -euo pipefail
if [ $# -eq 0 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
for bin in redis-benchmark redis-cli; do
  command -v "$bin" >/dev/null || { echo "ceiling: $bin not found: run make deps" >&2; exit 1; }
done
REQUESTS=${REQUESTS:-200000}
CLIENTS=${CLIENTS:-50}
PIPELINE=${PIPELINE:-16}
TTL_MS=${TTL_MS:-30000}
RELEASE='if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sha=""
for a in "$@"; do
  sha=$(redis-cli -h "${a%:*}" -p "${a##*:}" SCRIPT LOAD "$RELEASE")
done

# bench NAME CMD... : one redis-benchmark per master at once; prints the sum.
bench() {
  local name=$1; shift
  local i=0 pids=()
  for a in "${MASTERS[@]}"; do
    redis-benchmark -h "${a%:*}" -p "${a##*:}" -n "$REQUESTS" -c "$CLIENTS" -P "$PIPELINE" \
      -r 100000000 -q "$@" >"$tmp/$name.$i" 2>&1 &
    pids+=($!); i=$((i + 1))
  done
  for p in "${pids[@]}"; do wait "$p"; done
  cat "$tmp/$name".* | tr '\r' '\n' | grep -o '[0-9.]* requests per second' |
    awk '{s += $1} END {printf "%.0f", s}'
}

MASTERS=("$@")
N=${#MASTERS[@]}
agg_set=$(bench set SET 'lock:__rand_int__' tok NX PX "$TTL_MS")
agg_rel=$(bench release EVALSHA "$sha" 1 'lock:__rand_int__' tok)
echo "masters:                $N"
echo "aggregate SET NX:       $agg_set/s"
echo "aggregate release:      $agg_rel/s"
awk -v n="$N" -v s="$agg_set" -v r="$agg_rel" \
  'BEGIN { printf "ceiling cycles/s:       %.0f\n", 1 / (n * (1/s + 1/r)) }'
