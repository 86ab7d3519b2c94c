#!/usr/bin/env bash
# bench/run.sh — rpcstress side by side with wrk, hey, bombardier, vegeta and oha.
#
# Installs what is missing, then runs every scenario for every tool against the same tiny fasthttp
# JSON-RPC target (bench/target) on 127.0.0.1, the target pinned to core 0 and the tester to core 1
# with taskset. Tools alternate: each repetition runs every case once per tool, in an order rotated
# per repetition and case, so no tool always runs first or all its runs in a row. Every run is
# bounded in time. bench/cmd/benchreport then turns the raw files into bench/RESULTS.md (medians
# and [min–max]): that file is generated, never edited by hand.
#
# Knobs (environment):
#   REPS=3                 repetitions of every case (at least 3 for RESULTS.md to count)
#   SECONDS_PER_RUN=10     length of every run
#   SCENARIOS="1 2 3 4 5 6 7 8"
#   TOOLS="rpcstress wrk hey bombardier vegeta oha"
#                          (and bench/cmd/floor's designs, in scenarios 1 and 2 only: floor-loop,
#                          floor-lazy (fixed rates), floor-goroutines, floor-bare; see bench/floor.sh)
#   SEARCH_RATES="…"       scenario 3's ladder of rates (req/s); SEARCH_SECONDS=5 per step
#   SOAK_SECONDS=300       scenario 8's one long run (rpcstress's RSS sampled every RSS_EVERY=5 s)
#   PORT=18899             the target's port on 127.0.0.1
#   RESULTS=bench/RESULTS.md  where the report goes
#   SKIP_INSTALL=1         use only what is already there
#   SKIP_GOBENCH=1         leave out the `go test -bench ./engine/` block
#   RPCSTRESS_BIN=path     test this rpcstress binary instead of building the checkout
# Quick smoke run: REPS=1 SECONDS_PER_RUN=3 SCENARIOS="1 2" TOOLS="rpcstress wrk" bench/run.sh
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH=$ROOT/bench
TOOLDIR=$BENCH/.tools
REPS=${REPS:-3}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
SCENARIOS=${SCENARIOS:-1 2 3 4 5 6 7 8}
TOOLS=${TOOLS:-rpcstress wrk hey bombardier vegeta oha}
SEARCH_RATES=${SEARCH_RATES:-10000 20000 30000 40000 $(seq -s " " 50000 5000 160000)}
SEARCH_SECONDS=${SEARCH_SECONDS:-5}
SOAK_SECONDS=${SOAK_SECONDS:-300}
RSS_EVERY=${RSS_EVERY:-5}
PORT=${PORT:-18899}
RESULTS=${RESULTS:-$BENCH/RESULTS.md}
URL="http://127.0.0.1:$PORT/"
BODY=$BENCH/body.json
BOMBARDIER_VERSION=v1.2.6
VEGETA_VERSION=v12.12.0
OHA=$TOOLDIR/oha/bin/oha

say() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
has() { [[ " $TOOLS " == *" $1 "* ]]; }

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=$BENCH/.runs/$STAMP
mkdir -p "$OUT/runs" "$TOOLDIR"
ENV=$OUT/env.txt
: >"$ENV"
note() { printf '%s=%s\n' "$1" "$2" >>"$ENV"; } # facts for the report, one key=value a line

# ---------------------------------------------------------------------------------------------
# Install what is missing. Everything built lands in bench/.tools (git-ignored).

for need in taskset /usr/bin/time curl; do
  command -v "$need" >/dev/null || { echo "run.sh: $need is missing (Debian: util-linux, time, curl)" >&2; exit 1; }
done

apt_updated=
apt_install() {
  [ -n "${SKIP_INSTALL:-}" ] && return 1
  [ "$(id -u)" = 0 ] || { say "not root: cannot apt-get install $*"; return 1; }
  if [ -z "$apt_updated" ]; then apt-get update >/dev/null && apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" >/dev/null
}

go_tool() { # go_tool NAME MODULE VERSION: build a peer from the Go module proxy in a throwaway module
  local name=$1 mod=$2 ver=$3 tmp
  [ -x "$TOOLDIR/$name" ] && return 0
  [ -n "${SKIP_INSTALL:-}" ] && return 1
  say "building $name $ver from the Go module proxy"
  tmp=$(mktemp -d)
  (cd "$tmp" && go mod init x >/dev/null 2>&1 && go get "$mod@$ver" >/dev/null 2>&1 &&
    go build -o "$TOOLDIR/$name" "$mod") || { rm -rf "$tmp"; return 1; }
  rm -rf "$tmp"
}

peer_ok() { # peer_ok TOOL: drop TOOL from the run with the reason, for RESULTS.md
  TOOLS=$(printf '%s\n' $TOOLS | grep -vx "$1" | tr '\n' ' ')
  note "skipped.$1" "$2"
  say "skipping $1: $2"
}

if has wrk && ! command -v wrk >/dev/null; then apt_install wrk || peer_ok wrk "the Debian package wrk could not be installed"; fi
if has hey && ! command -v hey >/dev/null; then apt_install hey || peer_ok hey "the Debian package hey could not be installed"; fi
if has bombardier; then
  go_tool bombardier github.com/codesenberg/bombardier "$BOMBARDIER_VERSION" ||
    peer_ok bombardier "codesenberg/bombardier $BOMBARDIER_VERSION could not be built from the Go module proxy"
fi
if has vegeta; then
  go_tool vegeta github.com/tsenart/vegeta/v12 "$VEGETA_VERSION" ||
    peer_ok vegeta "tsenart/vegeta $VEGETA_VERSION could not be built from the Go module proxy"
fi
if has oha && [ ! -x "$OHA" ]; then
  if [ -n "${SKIP_INSTALL:-}" ] || ! command -v cargo >/dev/null; then
    peer_ok oha "cargo is not installed here, so oha (crates.io) could not be built"
  else
    say "building oha with cargo install --locked (several minutes)"
    cargo install oha --locked --root "$TOOLDIR/oha" >"$OUT/oha-build.log" 2>&1 ||
      peer_ok oha "cargo install oha --locked failed (crates.io unreachable or the build broke; see the run's oha-build.log)"
  fi
fi
note "skipped.wrk2" "wrk2 has no Debian package and is on no registry this machine reaches (its source is on GitHub only), so it is not in the suite"

if [ -n "${RPCSTRESS_BIN:-}" ]; then
  say "using rpcstress from RPCSTRESS_BIN=$RPCSTRESS_BIN"
  cp "$RPCSTRESS_BIN" "$TOOLDIR/rpcstress"
  note rpcstress_build "the binary given in RPCSTRESS_BIN"
else
  say "building rpcstress and the target from this checkout"
  # A tree that others are editing may not compile for a moment: retry for up to 5 minutes.
  for try in $(seq 10); do
    go build -o "$TOOLDIR/rpcstress" "$ROOT" 2>"$OUT/rpcstress-build.log" && break
    [ "$try" -lt 10 ] || { cat "$OUT/rpcstress-build.log" >&2; echo "run.sh: rpcstress does not build" >&2; exit 1; }
    say "rpcstress does not build yet (see $OUT/rpcstress-build.log); retrying in 30 s"
    sleep 30
  done
  note rpcstress_build "go build from this checkout"
fi
go build -o "$TOOLDIR/target" "$BENCH/target"
[[ " $TOOLS " != *" floor-"* ]] || go build -o "$TOOLDIR/floor" "$BENCH/cmd/floor"
go build -o "$TOOLDIR/benchreport" "$BENCH/cmd/benchreport"
grep -qF "$(cat "$BODY")" "$BENCH/wrk-post.lua" || { echo "run.sh: bench/wrk-post.lua must send bench/body.json" >&2; exit 1; }
printf 'POST %s\n' "$URL" >"$OUT/vegeta-targets.txt"

# ---------------------------------------------------------------------------------------------
# Facts about this machine and the tools.

note port "$PORT"
note started "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
note reps "$REPS"
note seconds "$SECONDS_PER_RUN"
note search_seconds "$SEARCH_SECONDS"
note soak_seconds "$SOAK_SECONDS"
note scenarios "$SCENARIOS"
note tools "$TOOLS"
note nproc "$(nproc --all)"
note cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
note kernel "$(uname -sr)"
note go "$(go version)"
note mem "$(free -h | awk '/^Mem:/ {print $2}')"
note loadavg_start "$(cut -d' ' -f1-3 /proc/loadavg)"
note rpcstress_rev "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD -- . 2>/dev/null || echo ' + uncommitted changes')"
note version.rpcstress "$("$TOOLDIR/rpcstress" version 2>&1 | head -1)"
note version.target "bench/target (fasthttp $(go list -m -f '{{.Version}}' github.com/valyala/fasthttp))"
command -v wrk >/dev/null && note version.wrk "$(wrk --version 2>&1 | head -1 | sed 's/ Copyright.*//') (Debian package $(dpkg-query -W -f '${Version}' wrk 2>/dev/null || echo '?'))"
command -v hey >/dev/null && note version.hey "hey (Debian package $(dpkg-query -W -f '${Version}' hey 2>/dev/null || echo '?'))"
[ -x "$TOOLDIR/bombardier" ] && note version.bombardier "bombardier $BOMBARDIER_VERSION (built from the Go module proxy)"
[ -x "$TOOLDIR/vegeta" ] && note version.vegeta "vegeta $VEGETA_VERSION (built from the Go module proxy)"
[ -x "$OHA" ] && note version.oha "$("$OHA" --version 2>&1 | head -1) (cargo install --locked)"
note version.tmux "$(tmux -V 2>/dev/null || echo 'not installed')"

# ---------------------------------------------------------------------------------------------
# One run: a fresh target on core 0, one tester on core 1 under /usr/bin/time, the target's
# counts afterwards. Every piece is bounded in time.

TPID=
stop_target() {
  [ -n "$TPID" ] || return 0
  kill -TERM "$TPID" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$TPID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$TPID" 2>/dev/null || true
  wait "$TPID" 2>/dev/null || true
  TPID=
}
TMUX_SOCK=rpcstress-bench-$$
cleanup() {
  stop_target
  tmux -L "$TMUX_SOCK" kill-server 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_target() { # start_target DIR FLAGS...
  local dir=$1
  shift
  taskset -c 0 "$TOOLDIR/target" --listen "127.0.0.1:$PORT" "$@" 2>"$dir/target.err" &
  TPID=$!
  for _ in $(seq 100); do
    curl -fs "${URL}stats" >/dev/null 2>&1 && return 0
    kill -0 "$TPID" 2>/dev/null || break
    sleep 0.05
  done
  echo "run.sh: the target did not start (see $dir/target.err)" >&2
  exit 1
}

target_cpu() { # CPU seconds the target used so far (utime+stime of /proc/PID/stat)
  awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$TPID/stat"
}

# tool_cmd TOOL MODE RATE CONNS SECS DIR: the tester's command line, into CMD
tool_cmd() {
  local tool=$1 mode=$2 rate=$3 conns=$4 secs=$5 dir=$6
  case $tool in
  rpcstress | rpcstress-headless | rpcstress-dashboard | rpcstress-tick10 | rpcstress-workers)
    if [ "$mode" = closed ]; then
      CMD=("$TOOLDIR/rpcstress" "$BENCH/profiles/closed.toml" --url "$URL" --duration "${secs}s" --connections "$conns")
    else
      CMD=("$TOOLDIR/rpcstress" "$BENCH/profiles/open.toml" --url "$URL" --rate "$rate" --duration "${secs}s" --connections "$conns")
    fi
    CMD+=(--out "$dir/snapshot.json")
    if [ "$tool" = rpcstress-dashboard ]; then CMD+=(--exit-on-end); else CMD+=(--headless); fi
    if [ "$tool" = rpcstress-tick10 ]; then CMD+=(--send-tick 10ms); fi # the coarser grain (README: The send tick)
    if [ "$tool" = rpcstress-workers ]; then CMD+=(--workers); fi # a goroutine per connection, not the event loop
    ;;
  floor-loop | floor-lazy | floor-goroutines | floor-bare)
    local design=${tool#floor-}
    case $design in loop | bare) design=eager ;; esac
    if [ "$mode" = closed ]; then design=${design/eager/closed}; design=${design/goroutines/goroutines-closed}; fi
    CMD=("$TOOLDIR/floor" -mode "$design" -addr "127.0.0.1:$PORT" -d "${secs}s" -c "$conns" -body "$BODY")
    [ "$mode" = closed ] || CMD+=(-rate "$rate")
    [ "$tool" = floor-bare ] || CMD+=(-work) # the per-answer work rpcstress cannot leave out
    ;;
  wrk) CMD=(wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$BENCH/wrk-post.lua" "$URL") ;;
  hey)
    CMD=(hey -z "${secs}s" -c "$conns")
    [ "$mode" = closed ] || CMD+=(-q "$((rate / conns))") # hey's -q is per worker
    CMD+=(-m POST -T application/json -D "$BODY" "$URL")
    ;;
  bombardier)
    CMD=("$TOOLDIR/bombardier" -c "$conns" -d "${secs}s")
    [ "$mode" = closed ] || CMD+=(--rate "$rate")
    CMD+=(-m POST -H "Content-Type: application/json" -f "$BODY" -l -p r -o json "$URL")
    ;;
  vegeta)
    CMD=("$TOOLDIR/vegeta" attack -targets "$OUT/vegeta-targets.txt" -body "$BODY" -header "Content-Type: application/json"
      -rate "$([ "$mode" = closed ] && echo 0 || echo "$rate")" -duration "${secs}s" -workers "$conns" -max-workers "$conns"
      -output "$dir/results.bin")
    ;;
  oha | oha-corrected)
    CMD=("$OHA" -z "${secs}s" -c "$conns")
    [ "$mode" = closed ] || CMD+=(-q "$rate")
    [ "$tool" = oha-corrected ] && CMD+=(--latency-correction)
    CMD+=(-m POST -H "Content-Type: application/json" -D "$BODY" --no-tui --output-format json "$URL")
    ;;
  *) echo "run.sh: unknown tool $tool" >&2; exit 1 ;;
  esac
}

# sample_rss DIR: every RSS_EVERY s, the resident set of the rpcstress run writing its snapshot
# into DIR, as "seconds-since-start KiB" lines in DIR/rss.txt, until that process is gone. It is
# found by its --out path and its name, so no other rpcstress on the machine is measured.
sample_rss() {
  local dir=$1 pid= t0 kb p i
  t0=$(date +%s.%N)
  for i in $(seq 100); do # up to 10 s for it to start
    for p in $(pgrep -f -- "$dir/snapshot.json"); do
      [ "$(cat "/proc/$p/comm" 2>/dev/null)" = rpcstress ] && pid=$p
    done
    [ -n "$pid" ] && break
    sleep 0.1
  done
  [ -n "$pid" ] || return 0
  while kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [ -n "$kb" ]; do
    printf '%s %s\n' "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')" "$kb" >>"$dir/rss.txt"
    sleep "$RSS_EVERY"
  done
}

NRUN=0
T0=$(date +%s)
# run_one SCENARIO CASE TOOL REP MODE RATE CONNS SECS TARGETFLAGS...
run_one() {
  local scen=$1 case=$2 tool=$3 rep=$4 mode=$5 rate=$6 conns=$7 secs=$8
  shift 8
  local id="s$scen-$case-$tool-r$rep" dir cpu0 cpu1 rc=0 limit=$((secs + 30))
  dir=$OUT/runs/$id
  mkdir -p "$dir"
  tool_cmd "$tool" "$mode" "$rate" "$conns" "$secs" "$dir"
  {
    echo "scenario=$scen"; echo "case=$case"; echo "tool=$tool"; echo "rep=$rep"; echo "mode=$mode"
    echo "rate=$rate"; echo "conns=$conns"; echo "seconds=$secs"; echo "target_flags=$*"
    echo "cmd=taskset -c 1 $(printf '%q ' "${CMD[@]}")"
  } >"$dir/meta"
  start_target "$dir" "$@"
  cpu0=$(target_cpu)
  if [ "$tool" = rpcstress-dashboard ]; then
    # The dashboard in a real 80x24 terminal: a tmux pane on our own socket, pinned like the rest.
    local q
    q=$(printf '%q ' taskset -c 1 /usr/bin/time -f '%U %S %M %e' -o "$dir/time.txt" timeout --foreground -k 5 "$limit" "${CMD[@]}")
    TERM=xterm-256color taskset -c 1 tmux -L "$TMUX_SOCK" -f /dev/null new-session -d -s "r$NRUN" -x 80 -y 24 \
      "$q; echo \$? > $(printf '%q' "$dir/rc")"
    local deadline=$(($(date +%s) + limit + 10))
    while tmux -L "$TMUX_SOCK" has-session -t "r$NRUN" 2>/dev/null; do
      [ "$(date +%s)" -lt "$deadline" ] || { tmux -L "$TMUX_SOCK" kill-session -t "r$NRUN" 2>/dev/null || true; break; }
      sleep 0.2
    done
    rc=$(cat "$dir/rc" 2>/dev/null || echo 125)
  else
    local spid=
    if [ "$scen" = 8 ]; then
      sample_rss "$dir" &
      spid=$!
    fi
    taskset -c 1 /usr/bin/time -f '%U %S %M %e' -o "$dir/time.txt" \
      timeout -k 5 "$limit" "${CMD[@]}" >"$dir/out.txt" 2>"$dir/err.txt" </dev/null || rc=$?
    if [ -n "$spid" ]; then wait "$spid" || true; fi
  fi
  cpu1=$(target_cpu)
  curl -fs --max-time 5 "${URL}stats" >"$dir/stats.json" || echo '{}' >"$dir/stats.json"
  stop_target
  echo "rc=$rc" >>"$dir/meta"
  echo "target_cpu=$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN {print b - a}')" >>"$dir/meta"
  if [ "$tool" = vegeta ] && [ -f "$dir/results.bin" ]; then
    "$TOOLDIR/vegeta" report -type=json "$dir/results.bin" >"$dir/report.json" 2>>"$dir/err.txt" || true
    rm -f "$dir/results.bin" # large; the report keeps what the suite reads
  fi
  NRUN=$((NRUN + 1))
  SERVED=$(sed -n 's/.*"requests":\([0-9]*\).*/\1/p' "$dir/stats.json")
  SERVED=${SERVED:-0}
  # One line of at most 80 columns: user+sys CPU s, peak RSS MB; the exit code only when not 0.
  local u=0 s=0 kb=0
  read -r u s kb _ < <(tail -1 "$dir/time.txt" 2>/dev/null) || true
  say "#$NRUN s$scen $case $tool r$rep: $SERVED served, $(awk -v u="$u" -v s="$s" -v k="$kb" \
    'BEGIN { printf "%.2f s CPU, %d MB", u + s, k / 1024 }')$([ "$rc" = 0 ] || echo ", rc $rc")"
}

rotate() { # rotate N WORDS...: the words, starting at the N-th (mod count)
  local n=$1
  shift
  local a=("$@") i k=${#a[@]}
  for ((i = 0; i < k; i++)); do printf '%s ' "${a[$(((n + i) % k))]}"; done
}

# The cases of scenarios 1, 2 and 4-7: "scenario case mode rate conns tools | target flags".
# bench/cmd/floor's designs send one request at an even rate and count nothing else, so they
# join scenarios 1 and 2 only (floor-lazy, which reads at ticks, only 2); the rest is the peers.
FLOORS=$(printf '%s\n' $TOOLS | grep '^floor-' | tr '\n' ' ' || true)
CLOSED_FLOORS=$(printf '%s\n' $FLOORS | grep -vx floor-lazy | tr '\n' ' ' || true)
PEERS=$(printf '%s\n' $TOOLS | grep -v '^floor-' | tr '\n' ' ' || true)
RATE_TOOLS=$(printf '%s\n' $PEERS | grep -vx wrk | tr '\n' ' ' || true) # wrk has no rate option
has wrk && note note.wrk "wrk has no rate option (wrk2 would), so it runs only in the closed-loop scenario 1"
STALL_TOOLS=$RATE_TOOLS
# rpcstress with --send-tick 10ms beside the default in the fixed rates and the token bucket:
# what the coarser grain saves in CPU (scenario 2), and what its bursts cost a limiter (6).
TICK_TOOLS=$RATE_TOOLS
has rpcstress && TICK_TOOLS="$TICK_TOOLS rpcstress-tick10"
# and with --workers (a goroutine per connection, not the event loop) in the fixed rates: what the
# event loop saves (bench/README, "The event loop"); scenario 1 runs the event loop alone.
FIXED_TOOLS=$TICK_TOOLS
has rpcstress && FIXED_TOOLS="$FIXED_TOOLS rpcstress-workers"
has oha && STALL_TOOLS="$STALL_TOOLS oha-corrected"
CASES=()
for s in $SCENARIOS; do
  case $s in
  1) CASES+=("1 closed closed 0 50 $PEERS $CLOSED_FLOORS|") ;;
  2) for r in 5000 20000 50000; do CASES+=("2 $r rate $r 50 $FIXED_TOOLS $FLOORS|"); done ;;
  4) CASES+=("4 delay2ms rate 20000 100 $RATE_TOOLS|--delay 2ms") ;;
  5) CASES+=("5 stall rate 1000 10 $STALL_TOOLS|--stall-every 2s --stall-for 200ms") ;;
  6) CASES+=("6 bucket rate 2000 50 $TICK_TOOLS|--rate 1000 --burst 10") ;;
  7) has rpcstress && CASES+=("7 dashboard rate 20000 50 rpcstress-headless rpcstress-dashboard|") ;;
  esac
done

say "raw results in $OUT"
for ((rep = 1; rep <= REPS; rep++)); do
  ci=0
  for c in "${CASES[@]}"; do
    spec=${c%%|*}
    read -r -a tflags <<<"${c#*|}"
    read -r scen case mode rate conns tools <<<"$spec"
    # shellcheck disable=SC2086
    for tool in $(rotate $((rep + ci)) $tools); do
      run_one "$scen" "$case" "$tool" "$rep" "$mode" "$rate" "$conns" "$SECONDS_PER_RUN" ${tflags[@]+"${tflags[@]}"}
    done
    ci=$((ci + 1))
  done
done

# Scenario 3: the highest fixed rate each tool holds within 1 % (served within 1 % of rate×time),
# one core, 50 connections. Step up the ladder; at each step every tool still in runs once (in a
# rotated order); a miss is retried once (the machine is noisy) and a second miss ends the tool.
if [[ " $SCENARIOS " == *" 3 "* ]]; then
  alive=$RATE_TOOLS
  step=0
  for r in $SEARCH_RATES; do
    [ -n "${alive// /}" ] || break
    next=
    for tool in $(rotate "$step" $alive); do
      ok=
      for attempt in 1 2; do
        run_one 3 "$r" "$tool" "$attempt" rate "$r" 50 "$SEARCH_SECONDS"
        if [ $((100 * SERVED)) -ge $((99 * r * SEARCH_SECONDS)) ] && [ $((100 * SERVED)) -le $((101 * r * SEARCH_SECONDS)) ]; then
          ok=1
          break
        fi
      done
      [ -n "$ok" ] && next="$next $tool"
    done
    alive=$next
    step=$((step + 1))
  done
fi

# Scenario 8: one long run of rpcstress at scenario 2's 20k req/s, its resident set sampled all
# along, to show memory stays flat however many requests a run makes.
if [[ " $SCENARIOS " == *" 8 "* ]] && has rpcstress; then
  run_one 8 soak rpcstress 1 rate 20000 50 "$SOAK_SECONDS"
fi

if [ -z "${SKIP_GOBENCH:-}" ]; then
  say "go test -bench ./engine/"
  (cd "$ROOT" && timeout 600 go test -run '^$' -bench . -benchmem ./engine/) >"$OUT/gobench.txt" 2>&1 ||
    echo "(go test -bench failed: exit $?)" >>"$OUT/gobench.txt"
fi

note finished "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
note elapsed_s "$(($(date +%s) - T0))"
note loadavg_end "$(cut -d' ' -f1-3 /proc/loadavg)"
"$TOOLDIR/benchreport" -dir "$OUT" -root "$ROOT" -o "$RESULTS"
say "wrote $RESULTS: $NRUN runs in $(($(date +%s) - T0)) s"
