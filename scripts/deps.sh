#!/usr/bin/env bash
# Installs what lockbench's runs and tests need on a fresh Debian machine:
# redis-server and redis-benchmark, and chromium for the HTML report's render
# test (skip it with LOCKBENCH_NO_BROWSER=1), and a C compiler for the
# clockshift preload library of clock-jump faults (compose/clockshift).
# etcd is built into lockbench itself (go.etcd.io/etcd/server/v3/embed), so
# it needs nothing here. The zookeeper, postgres and single (Sentinel)
# backends need zookeeper (a JVM comes with it), postgresql and
# redis-sentinel; lockbench starts its own servers of them.
set -euo pipefail
need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v redis-benchmark >/dev/null || need+=(redis-tools)
[ -f /usr/share/java/zookeeper.jar ] && command -v java >/dev/null || need+=(zookeeper)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v redis-sentinel >/dev/null || need+=(redis-sentinel)
command -v cc >/dev/null || command -v gcc >/dev/null || need+=(gcc libc6-dev)
if [ -z "${LOCKBENCH_NO_BROWSER:-}" ]; then
  command -v chromium >/dev/null || need+=(chromium)
fi
if [ ${#need[@]} -eq 0 ]; then
  echo "deps: redis-server $(redis-server --version | sed -E 's/.*v=([^ ]+).*/\1/') present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing ${need[*]}; run as root or: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# The Debian packages start system services (redis on :6379, ...); lockbench starts its own.
for svc in redis-server redis-sentinel postgresql zookeeper; do
  (systemctl disable --now "$svc" 2>/dev/null || service "$svc" stop 2>/dev/null || true) >/dev/null
done
echo "deps: installed ${need[*]}"
