#!/usr/bin/env bash
# Installs what lockbench needs on a Debian machine, and nothing else.
#
#   scripts/deps.sh                 redis-server and redis-benchmark: all `make run` needs
#   scripts/deps.sh --all           everything the test suite uses (`make test`)
#   scripts/deps.sh NAME...         one backend or feature's packages:
#       redis      redis-server, redis-tools (redis-benchmark)
#       sentinel   redis-sentinel              (backend single)
#       zookeeper  zookeeper (brings a JVM)    (backend zookeeper)
#       postgres   postgresql                  (backend postgres)
#       clockjump  gcc libc6-dev               (--fault clock-jump's preload library)
#       browser    chromium                    (the HTML report's render test;
#                                               --all skips it with LOCKBENCH_NO_BROWSER=1)
# etcd is built into lockbench (go.etcd.io/etcd/server/v3/embed): nothing to install.
#
# lockbench starts its own servers on free ports, so the system services these
# packages come with are not wanted. The script never stops, disables or
# reconfigures a service it did not install in the same call: during its
# apt-get install a policy-rc.d forbids every service start (unless the machine
# already has one), and afterwards it disables the boot-time start of the
# services of the packages that call newly installed, only.
set -euo pipefail

all=(redis sentinel zookeeper postgres clockjump browser)
want=()
for arg in "$@"; do
  case "$arg" in
    --all)
      for w in "${all[@]}"; do
        [ "$w" = browser ] && [ -n "${LOCKBENCH_NO_BROWSER:-}" ] || want+=("$w")
      done ;;
    redis|sentinel|zookeeper|postgres|clockjump|browser) want+=("$arg") ;;
    -h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "deps: unknown argument $arg (want --all or one of: ${all[*]})" >&2; exit 2 ;;
  esac
done
[ ${#want[@]} -eq 0 ] && want=(redis)

# missing NAME prints the Debian packages NAME needs that are not there.
missing() {
  case "$1" in
    redis)
      command -v redis-server >/dev/null || echo redis-server
      command -v redis-benchmark >/dev/null || echo redis-tools ;;
    sentinel) command -v redis-sentinel >/dev/null || echo redis-sentinel ;;
    zookeeper) { [ -f /usr/share/java/zookeeper.jar ] && command -v java >/dev/null; } || echo zookeeper ;;
    postgres) ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || echo postgresql ;;
    clockjump) command -v cc >/dev/null || command -v gcc >/dev/null || echo gcc libc6-dev ;;
    browser) command -v chromium >/dev/null || echo chromium ;;
  esac
}

need=()
for w in "${want[@]}"; do
  for p in $(missing "$w"); do need+=("$p"); done
done
if [ ${#need[@]} -eq 0 ]; then
  echo "deps: ${want[*]} present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing ${need[*]}; run as root or: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi

installed() { dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 2>/dev/null | awk '$1 == "ii" {print $2}' | sort; }
before=$(mktemp)
trap 'rm -f "$before"' EXIT
installed >"$before"

policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# scripts/deps.sh: no service starts while it installs\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  trap 'rm -f "$before" "$policy"' EXIT
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null

# The boot-time start of what this call installed (it was not running: the
# policy above kept it from starting); packages installed before are left alone.
for pkg in $(installed | comm -13 "$before" -); do
  for unit in $(dpkg -L "$pkg" 2>/dev/null | grep -E '^/(usr/)?lib/systemd/system/[^/@]+\.service$' || true); do
    systemctl disable "$(basename "$unit")" >/dev/null 2>&1 || true
  done
  for script in $(dpkg -L "$pkg" 2>/dev/null | grep -E '^/etc/init\.d/[^/]+$' || true); do
    update-rc.d "$(basename "$script")" disable >/dev/null 2>&1 || true
  done
done
echo "deps: installed ${need[*]}"
