#!/usr/bin/env bash
# bench/floor.sh — how close rpcstress's CPU per request is to what a Go tester can reach (issue 20).
#
# bench/cmd/floor sends the suite's request to bench/target at an even 1 ms grain in four
# designs, three of them with the per-answer work rpcstress cannot leave out (fasthttp's parse of
# the response, fastjson's of the JSON-RPC body, an HDR histogram):
#   floor-loop        one goroutine, its own epoll: answers read as they arrive (wrk's design)
#   floor-lazy        one goroutine: answers read at the next tick, their times the kernel's
#   floor-goroutines  rpcstress's design: a goroutine per connection fed by a channel
#   floor-bare        floor-loop without the per-answer work
# This is bench/run.sh's scenarios 1 (closed loop) and 2 (5k, 20k and 50k/s) with those designs
# beside rpcstress, wrk and bombardier, and the report in bench/FLOOR.md (about 15 minutes).
# run.sh's knobs apply (REPS, SECONDS_PER_RUN (8 here), PORT, SKIP_INSTALL, RESULTS).
set -euo pipefail
cd "$(dirname "$0")/.."
export SCENARIOS="1 2" SKIP_GOBENCH=1 SECONDS_PER_RUN=${SECONDS_PER_RUN:-8} RESULTS=${RESULTS:-$PWD/bench/FLOOR.md}
export TOOLS="rpcstress wrk bombardier floor-loop floor-lazy floor-goroutines floor-bare"
exec bench/run.sh
