#!/usr/bin/env bash
# bench/memory.sh — the memory of a long run: issue 17's "under 64 MB for a 10-minute two-target
# run at 5k req/s with comparison on", and the same run against one target beside it.
#
# Starts two mock nodes (rpcstress mocknode, each its own process) on 127.0.0.1, runs the
# profile bench/profiles/memory.toml under /usr/bin/time -v with --headless, and samples every
# 10 s the run's resident set (all of it, and its anonymous part: the rest is the binary's
# pages, shared with the nodes) and the Go runtime's figures from --metrics-listen. The run
# writes a heap profile at its end (--memprofile) and GODEBUG=gctrace=1's line per collection
# (the heap at each: before, after, marked live, and the goal).
#
# Knobs (environment):
#   TARGETS=2              2: two targets, their answers compared (--url a=… --url b=… --equality); 1: one
#   DURATION=10m           the run's length (the profile's stage is cut or extended to it)
#   PORT=21417             the first node's port; the second is PORT+1, --metrics-listen PORT+2
#   RPCSTRESS_BIN=path     measure this binary instead of building the checkout
#   GOMEMLIMIT, GOGC       passed to the run as the Go runtime reads them
# Output: bench/.runs/memory-<time>/ (time.txt, rss.txt, gctrace.txt, heap.pprof, stdout.txt);
# the last lines printed are the max RSS, the CPU and the books (scheduled = sent + dropped).
# Read the heap: go tool pprof -sample_index=inuse_space -top bench/.runs/memory-…/heap.pprof
set -euo pipefail

cd "$(dirname "$0")/.."
TARGETS=${TARGETS:-2}
DURATION=${DURATION:-10m}
PORT=${PORT:-21417}
OUT=bench/.runs/memory-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT"
for need in /usr/bin/time curl; do
  command -v "$need" >/dev/null || { echo "memory.sh: $need is missing (Debian: time, curl)" >&2; exit 1; }
done
BIN=${RPCSTRESS_BIN:-$OUT/rpcstress}
[ -n "${RPCSTRESS_BIN:-}" ] || go build -o "$BIN" .

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for i in 0 1; do
  "$BIN" mocknode --listen "127.0.0.1:$((PORT + i))" >"$OUT/node$i.log" 2>&1 &
  pids+=($!)
done
sleep 1

targets=(--url "http://127.0.0.1:$PORT/")
[ "$TARGETS" = 2 ] && targets=(--url "a=http://127.0.0.1:$PORT/" --url "b=http://127.0.0.1:$((PORT + 1))/" --equality)
GODEBUG=gctrace=1${GODEBUG:+,$GODEBUG} /usr/bin/time -v -o "$OUT/time.txt" \
  "$BIN" bench/profiles/memory.toml "${targets[@]}" --headless \
  --duration "$DURATION" --out "$OUT/snap.json" --memprofile "$OUT/heap.pprof" \
  --metrics-listen "127.0.0.1:$((PORT + 2))" >"$OUT/stdout.txt" 2>"$OUT/gctrace.txt" &
timed=$!
sleep 2
run=$(pgrep -P "$timed") || { echo "memory.sh: the run did not start:" >&2; grep -v '^gc ' "$OUT/gctrace.txt" >&2; exit 1; }
t0=$(date +%s)
echo "# seconds rss_kB anon_kB, then the runtime's MiB (heap in use, idle, released; the next goal; stacks)" >"$OUT/rss.txt"
while kill -0 "$timed" 2>/dev/null; do
  sleep 10
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$run/status" 2>/dev/null) || break
  anon=$(awk '/^Anonymous/ {print $2}' "/proc/$run/smaps_rollup" 2>/dev/null) || break
  go=$(curl -s --max-time 2 "http://127.0.0.1:$((PORT + 2))/metrics" |
    awk '/^go_memstats_(heap_inuse|heap_idle|heap_released|next_gc|stack_inuse)_bytes/ {
      sub(/\{.*/, "", $1); sub(/go_memstats_/, "", $1); sub(/_bytes/, "", $1); printf "%s=%.1f ", $1, $2 / 1048576 }')
  echo "$(($(date +%s) - t0)) $rss $anon $go" >>"$OUT/rss.txt"
done
wait "$timed" || true
grep -E "Maximum resident|User time|System time|Elapsed" "$OUT/time.txt"
grep -E "scheduled .* = sent" "$OUT/stdout.txt" | head -1
echo "memory.sh: $OUT"
