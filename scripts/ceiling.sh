#!/usr/bin/env bash
# ceiling.sh — what N Redis masters can do with Redlock's command mix when no
# lock logic is in the way: redis-benchmark on every master at once, pipelined
# 16 deep, first the acquire (SET key tok NX PX ttl), then the release
# (EVALSHA of lockbench's compare-and-delete script). A lock cycle costs N
# SETs and N releases of the aggregate capacity, so
#
#   ceiling cycles/s = 1 / (N × (1/agg_set + 1/agg_release))
#
# Usage: scripts/ceiling.sh [TLS flags] MASTER [MASTER ...]
#        MASTER: host:port, redis://[user[:password]@]host:port[/db] or
#        rediss://… (TLS); TLS flags as lockbench's: --tls-ca-cert FILE,
#        --tls-cert FILE, --tls-key FILE, --tls-server-name NAME,
#        --tls-insecure-skip-verify
#        (lockbench compare --ceiling measures the same in the same run)
# Env:   REQUESTS (per master per command, default 200000), CLIENTS (50),
#        PIPELINE (16), TTL_MS (30000); LOCKBENCH_REDIS_USER and
#        LOCKBENCH_REDIS_PASSWORD for masters whose URL has no password.
set -euo pipefail
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
TLS_ARGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --tls-ca-cert) TLS_ARGS+=(--cacert "${2:?--tls-ca-cert needs a file}"); shift 2 ;;
    --tls-cert) TLS_ARGS+=(--cert "${2:?--tls-cert needs a file}"); shift 2 ;;
    --tls-key) TLS_ARGS+=(--key "${2:?--tls-key needs a file}"); shift 2 ;;
    --tls-server-name) TLS_ARGS+=(--sni "${2:?--tls-server-name needs a name}"); shift 2 ;;
    --tls-insecure-skip-verify) TLS_ARGS+=(--insecure); shift ;;
    --) shift; break ;;
    -*) echo "ceiling: unknown flag $1" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || usage

# redact URL: the password shown as xxxxx.
redact() { sed -E 's#(://[^:@/]*):[^@/]*@#\1:xxxxx@#' <<<"$1"; }

# conn MASTER: sets CONN, the redis-cli/redis-benchmark flags that reach and
# authenticate to MASTER. A password not in the URL comes from the
# environment (redis-benchmark reads it only from -a).
conn() {
  local m=$1
  m=${m#"${m%%[![:space:]]*}"}; m=${m%"${m##*[![:space:]]}"}
  [ -n "$m" ] || { echo "ceiling: empty master \"$1\"" >&2; exit 2; }
  case $m in
    redis://* | rediss://*) ;;
    *://*) echo "ceiling: $(redact "$m"): want host:port, redis:// or rediss://" >&2; exit 2 ;;
    *:*) m="redis://$m" ;;
    *) echo "ceiling: $m: want host:port" >&2; exit 2 ;;
  esac
  CONN=(-u "$m")
  local auth=${m#*://}; auth=${auth%%/*}
  if [[ $auth != *@* && -n ${LOCKBENCH_REDIS_PASSWORD:-} ]]; then
    CONN+=(-a "$LOCKBENCH_REDIS_PASSWORD")
    [ -z "${LOCKBENCH_REDIS_USER:-}" ] || CONN+=(--user "$LOCKBENCH_REDIS_USER")
  fi
  if [[ $m == rediss://* ]]; then CONN+=(--tls "${TLS_ARGS[@]}"); fi
}
for bin in redis-benchmark redis-cli; do
  command -v "$bin" >/dev/null || { echo "ceiling: $bin not found: apt-get install redis-tools (or make deps)" >&2; exit 1; }
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
  conn "$a"
  out=$(redis-cli "${CONN[@]}" --no-auth-warning SCRIPT LOAD "$RELEASE" 2>&1) || true
  if ! [[ $out =~ ^[0-9a-f]{40}$ ]]; then
    echo "ceiling: $(redact "$a"): SCRIPT LOAD: $(redact "$out" | tr -s '\r\n' ' ')" >&2
    exit 2
  fi
  sha=$out
done

# bench NAME CMD... : one redis-benchmark per master at once; prints their
# aggregate rate: every request over the slowest run's time, the slowest
# rate times the runs. (The sum of their rates overstates it: runs that
# finish early leave their cores to the others, 1.04x at best, 1.1-1.7x
# under load.)
bench() {
  local name=$1; shift
  local i=0 pids=()
  for a in "${MASTERS[@]}"; do
    conn "$a"
    redis-benchmark "${CONN[@]}" -n "$REQUESTS" -c "$CLIENTS" -P "$PIPELINE" \
      -r 100000000 -q "$@" >"$tmp/$name.$i" 2>&1 &
    pids+=($!); i=$((i + 1))
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
  i=0
  for a in "${MASTERS[@]}"; do
    if ! grep -q 'requests per second' "$tmp/$name.$i"; then
      echo "ceiling: $(redact "$a"): redis-benchmark $name: $(tr '\r' '\n' <"$tmp/$name.$i" | grep -v -e 'Using a password' -e '^ *$' | tail -n 1)" >&2
      exit 2
    fi
    i=$((i + 1))
  done
  cat "$tmp/$name".* | tr '\r' '\n' | grep -o '[0-9.]* requests per second' |
    awk 'NR == 1 || $1 < m {m = $1} END {printf "%.0f", NR * m}'
}

MASTERS=("$@")
N=${#MASTERS[@]}
agg_set=$(bench set SET 'lockbench:ceiling:__rand_int__' tok NX PX "$TTL_MS")
agg_rel=$(bench release EVALSHA "$sha" 1 'lockbench:ceiling:__rand_int__' tok)
echo "masters:                $N"
echo "aggregate SET NX:       $agg_set/s"
echo "aggregate release:      $agg_rel/s"
awk -v n="$N" -v s="$agg_set" -v r="$agg_rel" \
  'BEGIN { printf "ceiling cycles/s:       %.0f\n", 1 / (n * (1/s + 1/r)) }'
