# Sourced (not run): makes `podman` work on the build machines, which have no Docker engine. crun and podman's
# default cgroup manager fail there, and so do the default ulimits, so a containers.conf of our own chooses runc,
# cgroupfs and no default ulimits. Quarkus (its podman extension, the container launcher of
# @QuarkusIntegrationTest) and support/Instance.java then run plain `podman` commands. The machine's docker CLI
# has no engine behind it, so Quarkus is told to use podman rather than detect docker first.
if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
  echo "podman-env: podman and runc are needed: apt-get install -y podman runc" >&2
  return 1 2>/dev/null || exit 1
fi
mkdir -p target
cat > target/containers.conf <<'EOF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF="$PWD/target/containers.conf"
export QUARKUS_NATIVE_CONTAINER_RUNTIME=podman
