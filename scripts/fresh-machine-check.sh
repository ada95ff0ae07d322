#!/usr/bin/env bash
# Checks the README's set-up on a fresh machine: a minimal Debian 12 root (debootstrap --variant=minbase) with
# only a JDK 17, git, curl, sudo and ca-certificates, no PostgreSQL, no RabbitMQ, no systemd. It runs the two
# README commands in that root, in network, mount, PID and UTS namespaces of its own (so its PostgreSQL and
# RabbitMQ never meet this host's; slirp4netns is its way out to the package mirror and Maven Central), as root
# and as a user "dev" with passwordless sudo, and prints one PASS/FAIL line per step and a table at the end.
#
#   sudo scripts/fresh-machine-check.sh              # all steps (about 2 GB downloaded, ~40 min on 2 cores)
#   sudo scripts/fresh-machine-check.sh --quick      # the fault suite (and one unit test) instead of the whole suite
#   sudo scripts/fresh-machine-check.sh --base-only  # only build (or reuse) the pristine root
# HOOKFAN_FRESH_USERS="dev" checks one user only; HOOKFAN_FRESH_TESTS="FaultSuiteIT#name" narrows --quick's suite.
#
# Needs root, debootstrap and slirp4netns (apt-get install debootstrap slirp4netns). The pristine root is built
# once and kept in $HOOKFAN_FRESH_CACHE (default /var/cache/hookfan-fresh); every run starts from a copy of it.
# Each run tests the repository's committed HEAD (a git clone), not the working tree.
set -euo pipefail

REPO=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
CACHE=${HOOKFAN_FRESH_CACHE:-/var/cache/hookfan-fresh}
BASE=$CACHE/base.tar
ROOT=$CACHE/root
LOGS=$CACHE/logs
MODE=full
case "${1:-}" in
  --quick) MODE=quick ;;
  --base-only) MODE=base ;;
  "") ;;
  *) echo "usage: $0 [--quick|--base-only]" >&2; exit 2 ;;
esac

[ "$(id -u)" -eq 0 ] || { echo "fresh-machine-check: needs root (debootstrap, chroot, namespaces): run it with sudo" >&2; exit 2; }
for tool in debootstrap slirp4netns unshare nsenter chroot; do
  command -v "$tool" >/dev/null || { echo "fresh-machine-check: $tool is missing: apt-get install debootstrap slirp4netns" >&2; exit 2; }
done

# The Debian mirror this host's apt uses (the only one that may be reachable).
mirror() {
  local uri
  uri=$(grep -rhs -E '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
    | grep -E '/debian/?( |$)' | grep -v security | head -n1 | sed -E 's/^URIs: *//; s/^deb (\[[^]]*\] )?//; s/ .*//') || true
  echo "${uri:-http://deb.debian.org/debian}"
}
MIRROR=$(mirror)
SECURITY_MIRROR=${MIRROR%/debian}/debian-security

t0=$SECONDS
step_names=(); step_results=(); step_seconds=()
record() { step_names+=("$1"); step_results+=("$2"); step_seconds+=("$3"); printf 'fresh-machine-check: %-58s %s (%ss)\n' "$1" "$2" "$3"; }

# --- the pristine root ------------------------------------------------------------------------------------------
build_base() {
  local build=$CACHE/build
  rm -rf "$build"; mkdir -p "$build" "$LOGS"
  echo "fresh-machine-check: building the pristine root from $MIRROR (once; log: $LOGS/base.log)"
  debootstrap --variant=minbase bookworm "$build" "$MIRROR" >"$LOGS/base.log" 2>&1
  cat >"$build/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY_MIRROR bookworm-security main
SOURCES
  # The "fresh machine" of issue #27: a JDK 17, git, curl, sudo, ca-certificates; and a user with sudo.
  unshare --mount --pid --fork --kill-child -- bash -euc '
    build=$1
    mount -t proc proc "$build/proc"; mount --rbind /dev "$build/dev"; mount -t sysfs sys "$build/sys"
    cp /etc/resolv.conf "$build/etc/resolv.conf"
    chroot "$build" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive bash -euc "
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless git curl sudo ca-certificates
      apt-get clean
      useradd -m -s /bin/bash dev
      echo \"dev ALL=(ALL) NOPASSWD:ALL\" > /etc/sudoers.d/dev; chmod 0440 /etc/sudoers.d/dev
      echo hookfan-fresh > /etc/hostname
      printf \"127.0.0.1 localhost\n127.0.1.1 hookfan-fresh\n::1 localhost ip6-localhost ip6-loopback\n\" > /etc/hosts
    "
  ' _ "$build" >>"$LOGS/base.log" 2>&1
  printf 'nameserver 10.0.2.3\n' >"$build/etc/resolv.conf"   # slirp4netns's DNS
  tar -C "$build" -cf "$BASE.tmp" . && mv "$BASE.tmp" "$BASE"
  rm -rf "$build"
}

if [ ! -f "$BASE" ]; then
  s=$SECONDS
  if build_base; then record "build the pristine root (debootstrap + JDK 17, git, curl, sudo)" PASS $((SECONDS - s))
  else record "build the pristine root (see $LOGS/base.log)" FAIL $((SECONDS - s)); exit 1; fi
fi
[ "$MODE" = base ] && { echo "fresh-machine-check: pristine root: $BASE"; exit 0; }

# --- one fresh machine per user ---------------------------------------------------------------------------------
NS_HOLDER=""; NS_PID=""; SLIRP_PID=""
cleanup() {
  if [ -n "$SLIRP_PID" ]; then kill "$SLIRP_PID" 2>/dev/null || true; wait "$SLIRP_PID" 2>/dev/null || true; fi
  # The namespace's PID 1 is the holder's child: when it goes, the kernel kills every process in the namespace
  # (PostgreSQL, RabbitMQ, Java), and the mounts vanish with the last of them.
  if [ -n "$NS_PID" ]; then kill -KILL "$NS_PID" 2>/dev/null || true; fi
  if [ -n "$NS_HOLDER" ]; then wait "$NS_HOLDER" 2>/dev/null || true; fi
  NS_HOLDER=""; NS_PID=""; SLIRP_PID=""
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

in_ns() { nsenter -t "$NS_PID" --net --mount --pid --uts -- "$@"; }
# Runs a command line in the root as root, or as "dev" through a login shell (a normal user's PATH, no /usr/sbin).
as_user() {
  local user=$1 line=$2
  if [ "$user" = root ]; then
    in_ns chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM=dumb \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "cd /root/hookfan || exit 1; $line"
  else
    in_ns chroot "$ROOT" /usr/bin/env -i LANG=C.UTF-8 TERM=dumb /usr/sbin/runuser -l "$user" -c "cd ~/hookfan || exit 1; $line"
  fi
}

network_up() {
  slirp4netns --configure --mtu=65520 --disable-host-loopback "$NS_PID" tap0 >>"$LOGS/slirp4netns.log" 2>&1 &
  SLIRP_PID=$!
  for _ in $(seq 1 50); do in_ns ip -4 addr show tap0 2>/dev/null | grep -q 10.0.2.100 && return 0; sleep 0.2; done
  echo "fresh-machine-check: slirp4netns did not configure tap0 (see $LOGS/slirp4netns.log)" >&2; return 1
}
network_down() {
  kill "$SLIRP_PID" 2>/dev/null || true; wait "$SLIRP_PID" 2>/dev/null || true; SLIRP_PID=""
  for _ in $(seq 1 50); do in_ns ip link show tap0 >/dev/null 2>&1 || return 0; sleep 0.2; done
  return 1
}

new_machine() {
  local user=$1
  cleanup
  rm -rf "$ROOT"; mkdir -p "$ROOT"
  tar -C "$ROOT" -xf "$BASE"
  local home=/root
  [ "$user" = root ] || home=/home/$user
  git clone -q "$REPO" "$ROOT$home/hookfan"
  [ "$user" = root ] || chown -R "$(chroot "$ROOT" id -u "$user"):$(chroot "$ROOT" id -g "$user")" "$ROOT$home/hookfan"
  unshare --net --mount --pid --uts --fork --kill-child -- sleep infinity &
  NS_HOLDER=$!
  for _ in $(seq 1 50); do
    NS_PID=$(cat "/proc/$NS_HOLDER/task/$NS_HOLDER/children" 2>/dev/null | awk '{print $1}')
    [ -n "$NS_PID" ] && break; sleep 0.1
  done
  [ -n "$NS_PID" ] || { echo "fresh-machine-check: could not create the namespaces" >&2; return 1; }
  in_ns hostname hookfan-fresh
  in_ns ip link set lo up
  in_ns mount -t proc proc "$ROOT/proc"
  in_ns mount --rbind /dev "$ROOT/dev"
  in_ns mount --rbind /sys "$ROOT/sys"
  in_ns mount -t tmpfs tmpfs "$ROOT/run"
  # Certificate authorities this host's administrator added (e.g. a TLS-inspecting egress proxy): a fresh machine
  # on this network needs them too, for curl and Java (Maven) to reach Maven Central over HTTPS.
  if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    in_ns chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin update-ca-certificates
  fi
  network_up
}

# Starts scripts/run.sh in the background and waits until the service says UP on its readiness probe.
run_until_ready() {
  local user=$1 log=$2 deadline=$3
  as_user "$user" './scripts/run.sh & echo $! > /tmp/hookfan-run.pid; wait' >"$log" 2>&1 &
  local runner=$! end=$((SECONDS + deadline)) ok=1
  while [ "$SECONDS" -lt "$end" ]; do
    if in_ns curl -fsS --max-time 2 http://127.0.0.1:9000/q/health/ready 2>/dev/null | grep -q '"status": *"UP"'; then ok=0; break; fi
    kill -0 "$runner" 2>/dev/null || break
    sleep 2
  done
  # Stop Hookfan (run.sh execs java, so the pid file names it); it drains for up to 30 s (quarkus.shutdown.timeout).
  in_ns chroot "$ROOT" /bin/bash -c 'kill $(cat /tmp/hookfan-run.pid) 2>/dev/null; true'
  for _ in $(seq 1 45); do kill -0 "$runner" 2>/dev/null || break; sleep 1; done
  if kill -0 "$runner" 2>/dev/null; then
    echo "fresh-machine-check: Hookfan did not stop within 45 s of SIGTERM: killing it" >>"$log"
    in_ns chroot "$ROOT" /bin/bash -c 'kill -KILL $(cat /tmp/hookfan-run.pid) 2>/dev/null; true'
    ok=1
  fi
  wait "$runner" 2>/dev/null || true
  in_ns chroot "$ROOT" rm -f /tmp/hookfan-run.pid
  return $ok
}

step() {  # step NAME COMMAND...: runs it, records PASS/FAIL and its seconds
  local name=$1; shift
  local s=$SECONDS
  if "$@"; then record "$name" PASS $((SECONDS - s)); else record "$name" FAIL $((SECONDS - s)); fi
}

services_quiet() {  # the second run's services.sh printed only its ready line, and no apt-get ran
  local log=$1
  grep -q '^services: PostgreSQL on 127.0.0.1:5432 and RabbitMQ on 127.0.0.1:5672 are ready' "$log" \
    && ! grep -E '^services: (installing|starting|preloading)' "$log" \
    && ! grep -qiE 'apt-get|could not change directory' "$log"
}

suite() {  # scripts/test.sh with the given arguments; the fault suite must have run, not been skipped
  local user=$1 log=$2; shift 2
  # In the background and waited for, so that an interrupt cleans up at once rather than after the suite.
  as_user "$user" "./scripts/test.sh $*" >"$log" 2>&1 &
  wait $! || return 1
  grep -q 'BUILD SUCCESS' "$log" && ! grep -q 'FaultSuiteIT skipped' "$log" \
    && grep -qE 'Tests run: [1-9][0-9]*, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: .* -+ in dev.hookfan.FaultSuiteIT' "$log"
}

check_machine() {
  local user=$1 full=$2 who
  who=$user; [ "$user" = root ] || who="$user (non-root, sudo)"
  local s=$SECONDS
  if ! new_machine "$user" >"$LOGS/$user-machine.log" 2>&1; then
    record "$who: fresh root + namespaces (see $LOGS/$user-machine.log)" FAIL $((SECONDS - s)); return
  fi
  record "$who: fresh root, own network namespace via slirp4netns" PASS $((SECONDS - s))
  step "$who: ./scripts/run.sh (first run, fresh machine) -> UP" run_until_ready "$user" "$LOGS/$user-run-1.log" 1800
  s=$SECONDS
  if network_down; then
    if run_until_ready "$user" "$LOGS/$user-run-2.log" 600 && services_quiet "$LOGS/$user-run-2.log"; then
      record "$who: ./scripts/run.sh again, no network: quiet -> UP" PASS $((SECONDS - s))
    else
      record "$who: ./scripts/run.sh again, no network: quiet -> UP" FAIL $((SECONDS - s))
    fi
  else
    record "$who: cut the network for the second run" FAIL $((SECONDS - s))
  fi
  network_up >>"$LOGS/$user-machine.log" 2>&1 || true
  if [ "$full" = full ]; then
    step "$who: ./scripts/test.sh -Dhookfan.it.excludes=none (the suite and the fault scenarios)" suite "$user" \
      "$LOGS/$user-test.log" -Dhookfan.it.excludes=none
  else
    local tests=${HOOKFAN_FRESH_TESTS:-FaultSuiteIT}
    step "$who: ./scripts/test.sh -Dit.test=$tests -Dtest=SignaturesTest" suite "$user" "$LOGS/$user-test.log" \
      "-Dit.test=$tests" -Dtest=SignaturesTest -Dsurefire.failIfNoSpecifiedTests=false
  fi
  grep -hE '^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, Failures' "$LOGS/$user-test.log" 2>/dev/null | tail -n 2 | sed "s/^/fresh-machine-check:   $user: /"
  cleanup
}

mkdir -p "$LOGS"
rm -f "$LOGS"/*-run-*.log "$LOGS"/*-test.log "$LOGS"/*-machine.log "$LOGS/slirp4netns.log"
COMMIT=$(git -C "$REPO" rev-parse --short HEAD)
echo "fresh-machine-check: testing $COMMIT from $REPO; logs in $LOGS"
rx0=$(awk '/^ *(eth|en)/ {s += $2} END {print s + 0}' /proc/net/dev)
for user in ${HOOKFAN_FRESH_USERS:-dev root}; do check_machine "$user" "$MODE"; done
rm -rf "$ROOT"
rx1=$(awk '/^ *(eth|en)/ {s += $2} END {print s + 0}' /proc/net/dev)

failed=0
echo
echo "| step | result | seconds |"
echo "|---|---|---|"
for i in "${!step_names[@]}"; do
  echo "| ${step_names[$i]} | ${step_results[$i]} | ${step_seconds[$i]} |"
  [ "${step_results[$i]}" = PASS ] || failed=1
done
echo
echo "fresh-machine-check: $(date -u +%Y-%m-%d), commit $COMMIT, $(( (SECONDS - t0) / 60 )) min," \
  "about $(( (rx1 - rx0) / 1000000 )) MB received by this host meanwhile: $([ $failed = 0 ] && echo PASS || echo FAIL)"
exit $failed
