#!/bin/sh
# The one way the service is started: `npm start` (and the other start scripts), the Docker image and
# docker-compose.yml all run this script, which starts Node on tools/start.mjs with the old-space limit
# (V8's heap for long-lived objects) sized for the memory the container has. Arguments go to the launcher:
#   sh tools/entrypoint.sh [gateway | ingest-worker | webhook-worker | edi-sftp | migrate | secrets:reseal]
#
# NODE_MAX_OLD_SPACE_MB  the limit for each Node process, in MB. Unset: three quarters of the container's
#                        memory limit (cgroup v2 or v1), shared by the apps the launcher runs (all four
#                        without an argument); no container limit: V8's own default. The quarter left over
#                        is for what lives outside that heap (young generation, code, buffers, sockets).
#
# Tracing: every process loads the tracing bootstrap first (`--import`, a module flag, not a V8 setting), so
# OpenTelemetry's instrumentations see express, pg and ioredis before the app imports them. With no
# OTEL_EXPORTER_OTLP_ENDPOINT it reads the environment and does nothing else (docs/operations.md, "Tracing").
set -eu

case "${1:-all}" in
  all) processes=4 ;;
  *) processes=1 ;;
esac

memory_limit_bytes() {
  if [ -r /sys/fs/cgroup/memory.max ]; then
    limit="$(cat /sys/fs/cgroup/memory.max)"
  elif [ -r /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
    limit="$(cat /sys/fs/cgroup/memory/memory.limit_in_bytes)"
  else
    return 0
  fi
  # "max" (v2) or a figure near 2^63 (v1) means no limit.
  case "$limit" in
    '' | max | *[!0-9]*) return 0 ;;
  esac
  [ "${#limit}" -le 15 ] && echo "$limit"
  return 0
}

if [ -n "${NODE_MAX_OLD_SPACE_MB:-}" ]; then
  case "$NODE_MAX_OLD_SPACE_MB" in
    *[!0-9]* | 0*)
      echo "NODE_MAX_OLD_SPACE_MB must be a whole number of MB above 0, not \"$NODE_MAX_OLD_SPACE_MB\"" >&2
      exit 2
      ;;
  esac
  heap_mb="$NODE_MAX_OLD_SPACE_MB"
else
  limit="$(memory_limit_bytes)"
  heap_mb="${limit:+$((limit / 1048576 * 3 / 4 / processes))}"
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
launcher="$root/tools/start.mjs"
tracing="$root/libs/shared/platform/dist/tracing/register.js"
if [ -n "$heap_mb" ]; then
  exec node --max-old-space-size="$heap_mb" --import "$tracing" "$launcher" "$@"
fi
exec node --import "$tracing" "$launcher" "$@"
