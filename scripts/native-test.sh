#!/usr/bin/env bash
# The native leg of CI (.ci/run runs it after scripts/test.sh): builds the native executable with the toolchain
# of ../shared/native-toolchain/, runs the @QuarkusIntegrationTest suite (*IT) against the executable, then builds
# the image FROM scratch (src/main/docker/Containerfile.native-scratch) and runs the same *IT against the running
# container. PostgreSQL and RabbitMQ must be up as scripts/services.sh leaves them (test.sh starts them).
#
# Where the toolchain cannot be assembled (a registry or mirror unreachable), or podman cannot be had, it says so
# in a banner and skips what needs it (without a toolchain it still runs the native build steps, sources-only),
# exit 0; once an executable is built, any failed test fails it.
#
#   HOOKFAN_NATIVE_TOOLCHAIN      the toolchain's cache directory (~/.cache/hookfan-native-toolchain)
#   HOOKFAN_NATIVE_TOOLCHAIN_SRC  where build.sh lives (../shared/native-toolchain)
#   HOOKFAN_NATIVE_XMX            the native-image builder's heap (9g; the build needs about 5 GB of it)
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain="${HOOKFAN_NATIVE_TOOLCHAIN:-$HOME/.cache/hookfan-native-toolchain}"
toolchain_src="${HOOKFAN_NATIVE_TOOLCHAIN_SRC:-../shared/native-toolchain}"
banner() {
  printf '\n%s\n' "########################################################################################################"
  printf '### %s\n' "$@"
  printf '%s\n\n' "########################################################################################################"
}
seconds() { echo $(( $(date +%s) - $1 )); }
# Without a toolchain, still every Quarkus native build step (reflection and resource registration included), as
# CI did before the toolchain existed: target/native-sources/, no executable.
sources_only() { ./mvnw -B package -Dnative -Dquarkus.native.sources-only=true -DskipTests; }
start=$(date +%s)
mkdir -p target

# --- 1. the toolchain ---------------------------------------------------------------------------------------
step=$(date +%s)
if [ ! -x "$toolchain_src/build.sh" ]; then
  banner "NATIVE LEG SKIPPED: no native-image toolchain source at $toolchain_src (build.sh)." \
         "No native executable was built or tested; only the native build steps run (sources-only)."
  sources_only
  exit 0
fi
if ! "$toolchain_src/build.sh" "$toolchain" > target/native-toolchain.log 2>&1; then
  tail -20 target/native-toolchain.log >&2
  banner "NATIVE LEG SKIPPED: the native-image toolchain could not be assembled (see target/native-toolchain.log;" \
         "a registry or mirror may be unreachable). No native executable was built or tested; only the native" \
         "build steps run (sources-only)."
  sources_only
  exit 0
fi
echo "native: toolchain ready in $toolchain ($(seconds "$step") s)"
# shellcheck source=/dev/null
source "$toolchain/env.sh"   # GRAALVM_HOME and JAVA_HOME (a JDK 25 that runs the builder; the code targets 17)
export QUARKUS_DATASOURCE_PASSWORD="${QUARKUS_DATASOURCE_PASSWORD:-postgres}"

# The JVM suite (unit tests and @QuarkusTest) ran in test.sh: here only failsafe's *IT run, on native artifacts, the
# fault scenarios among them.
only_its=(-Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dhookfan.it.excludes=none)

# --- 2. the executable, and the *IT against it ------------------------------------------------------------------
step=$(date +%s)
./mvnw -B verify -Dnative -Dquarkus.native.native-image-xmx="${HOOKFAN_NATIVE_XMX:-9g}" "${only_its[@]}"
echo "native: executable built and *IT passed on it ($(seconds "$step") s)"

# --- 3. the container image, and the *IT against the running container ------------------------------------------
step=$(date +%s)
if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
  as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }
  echo "native: installing podman and runc"
  as_root apt-get install -y podman runc >/dev/null 2>&1 \
    || { as_root apt-get update >/dev/null 2>&1 && as_root apt-get install -y podman runc >/dev/null 2>&1; } || true
fi
if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
  banner "NATIVE CONTAINER LEG SKIPPED: podman and runc are not installed and could not be (apt-get install -y podman runc)." \
         "The native executable was built and its *IT passed; its container image was not built or tested."
  exit 0
fi
# shellcheck source=scripts/podman-env.sh
source scripts/podman-env.sh
scripts/native-image-container.sh
# The previous run's image, so that rebuilding the tag leaves no dangling copy of the executable behind.
podman rmi -f hookfan/hookfan-native-scratch:ci >/dev/null 2>&1 || true
# The same executable (reuse-existing: no second native-image run), copied into the image by Quarkus' podman
# extension; @QuarkusIntegrationTest then starts the image, support/Instance.java too, on the host's network
# (PostgreSQL and RabbitMQ on localhost). An environment variable, not -D: with -Dquarkus.test.container.network=host
# FaultSuiteIT's container (it has a @TestProfile) ran on the host's network, but the next class's went on a
# network Quarkus created for it (--net=quarkus-integration-test-...) and reached no database.
QUARKUS_TEST_CONTAINER_NETWORK=host ./mvnw -B verify -Dnative -Dquarkus.native.reuse-existing=true "${only_its[@]}" \
  -Dquarkus.container-image.build=true \
  -Dquarkus.container-image.group=hookfan -Dquarkus.container-image.name=hookfan-native-scratch \
  -Dquarkus.container-image.tag=ci \
  -Dquarkus.podman.dockerfile-native-path=src/main/docker/Containerfile.native-scratch
echo "native: image hookfan/hookfan-native-scratch:ci built and *IT passed on it ($(seconds "$step") s)"
echo "native: the native leg took $(seconds "$start") s"
