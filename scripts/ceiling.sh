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

# redact URL: the password shown as xxxxx (up to the last @, so a
# password holding / # ? @ or : is masked whole).
redact() { sed -E 's#^(([a-z]+://)?[^:@]*):.*@#\1:xxxxx@#' <<<"$1"; }

# conn MASTER: sets ADDR (-h/-p and the TLS flags), USER, DB and PASS, the
# password (from the URL, else LOCKBENCH_REDIS_PASSWORD). No password goes
# on a command line, where every local user can read it: redis-cli gets it
# in REDISCLI_AUTH; redis-benchmark, which reads one only from -a, runs as
# a throwaway ACL user (bench_flags).
conn() {
  local m=$1
  m=${m#"${m%%[![:space:]]*}"}; m=${m%"${m##*[![:space:]]}"}
  [ -n "$m" ] || { echo "ceiling: empty master \"$1\"" >&2; exit 2; }
  case $m in
    redis://* | rediss://*) ;;
    *://* | *@*) echo "ceiling: $(redact "$m"): want host:port, redis:// or rediss://" >&2; exit 2 ;;
    *:*) m="redis://$m" ;;
    *) echo "ceiling: $m: want host:port" >&2; exit 2 ;;
  esac
  local rest=${m#*://}
  USER="" DB="" PASS=""
  if [[ $rest == *@* ]]; then
    local auth=${rest%@*}; rest=${rest##*@}
    USER=${auth%%:*}
    if [[ $auth == *:* ]]; then PASS=$(urldecode "${auth#*:}"); fi
  fi
  if [[ $rest == */* ]]; then DB=${rest#*/}; rest=${rest%%/*}; fi
  if [ -z "$PASS" ] && [ -n "${LOCKBENCH_REDIS_PASSWORD:-}" ]; then
    PASS=$LOCKBENCH_REDIS_PASSWORD; USER=${USER:-${LOCKBENCH_REDIS_USER:-}}
  fi
  ADDR=(-h "${rest%:*}" -p "${rest##*:}")
  if [[ $m == rediss://* ]]; then ADDR+=(--tls "${TLS_ARGS[@]}"); fi
}

# urldecode S: S with its %XX escapes decoded (and nothing else).
urldecode() { local s=${1//\\/\\\\}; printf '%b' "${s//%/\\x}"; }

# cli MASTER ARGS...: redis-cli on MASTER, the password in its environment.
cli() {
  conn "$1"; shift
  local flags=("${ADDR[@]}")
  [ -z "$USER" ] || flags+=(--user "$USER")
  [ -z "$DB" ] || flags+=(-n "$DB")
  if [ -n "$PASS" ]; then
    REDISCLI_AUTH=$PASS redis-cli "${flags[@]}" --no-auth-warning "$@"
  else
    env -u REDISCLI_AUTH redis-cli "${flags[@]}" "$@"
  fi
}

# bench_flags MASTER: sets BENCH, redis-benchmark's flags for MASTER: on a
# master with a password, a throwaway ACL user allowed only the ceiling's
# commands on its keys (made before, deleted on exit).
BENCH_USER=lockbench-ceiling-$$-$RANDOM
BENCH_PASS=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
bench_flags() {
  conn "$1"
  BENCH=("${ADDR[@]}")
  [ -z "$DB" ] || BENCH+=(--dbnum "$DB")
  [ -z "$PASS" ] || BENCH+=(--user "$BENCH_USER" -a "$BENCH_PASS")
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
USERS=()
cleanup() {
  for a in "${USERS[@]}"; do cli "$a" ACL DELUSER "$BENCH_USER" >/dev/null 2>&1 || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

sha=""
for a in "$@"; do
  out=$(cli "$a" SCRIPT LOAD "$RELEASE" 2>&1) || true
  if ! [[ $out =~ ^[0-9a-f]{40}$ ]]; then
    echo "ceiling: $(redact "$a"): SCRIPT LOAD: $(redact "$out" | tr -s '\r\n' ' ')" >&2
    exit 2
  fi
  sha=$out
  conn "$a"
  if [ -n "$PASS" ]; then
    out=$(cli "$a" ACL SETUSER "$BENCH_USER" on ">$BENCH_PASS" resetkeys '~lockbench:ceiling:*' resetchannels -@all \
      +set +evalsha +get +del +ping +select 2>&1) || true
    if [ "$out" != OK ]; then
      echo "ceiling: $(redact "$a"): ACL SETUSER (a throwaway user for redis-benchmark): $(tr -s '\r\n' ' ' <<<"$out")" >&2
      exit 2
    fi
    USERS+=("$a")
  fi
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
    bench_flags "$a"
    redis-benchmark "${BENCH[@]}" -n "$REQUESTS" -c "$CLIENTS" -P "$PIPELINE" \
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
