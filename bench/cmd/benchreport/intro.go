package main

import (
	"fmt"
	"sort"
	"strings"
)

func (p *report) machine() {
	e := p.d.Env
	p.pf("## Machine and tools\n\n")
	p.table([]string{"what", "value"}, [][]string{
		{"CPUs (nproc)", e["nproc"]},
		{"CPU model", e["cpu"]},
		{"kernel", e["kernel"]},
		{"memory", e["mem"]},
		{"Go", e["go"]},
		{"load average at start / end", e["loadavg_start"] + " / " + e["loadavg_end"]},
		{"rpcstress revision", e["rpcstress_rev"]},
	})
	var rows [][]string
	var keys []string
	for k := range e {
		if strings.HasPrefix(k, "version.") {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := strings.TrimPrefix(keys[i], "version."), strings.TrimPrefix(keys[j], "version.")
		if toolRank(a) != toolRank(b) {
			return toolRank(a) < toolRank(b)
		}
		return a < b
	})
	for _, k := range keys {
		rows = append(rows, []string{strings.TrimPrefix(k, "version."), e[k]})
	}
	p.table([]string{"tool", "version"}, rows)
	var notes []string
	for k, v := range e {
		if strings.HasPrefix(k, "skipped.") {
			notes = append(notes, fmt.Sprintf("- **%s not in the suite**: %s.", strings.TrimPrefix(k, "skipped."), v))
		}
		if strings.HasPrefix(k, "note.") {
			notes = append(notes, fmt.Sprintf("- %s.", v))
		}
	}
	sort.Strings(notes)
	notes = append(notes, "- hey has no total rate: its `-q` is per worker, so it runs with `-q rate/connections`.")
	p.pf("%s\n\n", strings.Join(notes, "\n"))
}

func (p *report) method() {
	p.pf("## Method\n\n")
	p.pf(`- **Target**: bench/target, a fasthttp server on 127.0.0.1 answering every POST with one pre-rendered
  getBalance result and counting its answers in atomics (GET /stats). A fresh target starts for every run,
  pinned to core 0 (taskset -c 0); the tester is pinned to core 1 (taskset -c 1) and runs under
  /usr/bin/time -f '%%U %%S %%M %%e' and a timeout. Every tool sends the same POST (bench/body.json, 104 bytes,
  Content-Type: application/json) over keep-alive connections.
- **Alternation**: each repetition runs every case once per tool, in an order rotated per repetition and
  case, so no tool always runs first and no tool runs all its repetitions in a row. Cells are
  **median [min–max]** over the repetitions.
- **req/s** = the target's own count ÷ the planned run time (the same yardstick for every tool); **tool req/s**
  is what the tool itself printed. **CPU s/1M** = tester user+sys seconds per million requests the target
  answered. **RSS** = the tester's peak resident set (MB). **p50/p99** (ms) come from each tool's own output:
  rpcstress's snapshot (latency from the intended send time), wrk --latency, bombardier -o json, oha
  --output-format json, vegeta report -type=json, hey's text (0.1 ms resolution).
- **target CPU** = CPU the target used during the run, in %% of its core: near 100 %% means the target, not
  the tester, was the limit.

`)
}
