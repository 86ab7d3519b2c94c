package main

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// suite is a made-up run of the whole suite with every section of the report in it: three
// tools and repetitions with spread, a search ladder with a retried miss, the stall and bucket
// truths, paired dashboard runs, a soak and a run with problems. Its numbers vary by tool and
// repetition in a fixed way, so the report is the same on every machine.
func suite() *Data {
	d := &Data{Env: Env{
		"started": "2026-11-23T10:15:00Z", "finished": "2026-11-23T10:45:00Z", "elapsed_s": "1800",
		"reps": "3", "seconds": "10", "scenarios": "1 2 3 4 5 6 7 8", "tools": "rpcstress wrk oha",
		"nproc": "2", "cpu": "AMD EPYC", "kernel": "Linux 6.1", "mem": "7.8Gi", "go": "go1.26.8",
		"loadavg_start": "0.10 0.20 0.30", "loadavg_end": "1.10 1.20 1.30", "rpcstress_rev": "abc1234",
		"port": "18899", "version.rpcstress": "rpcstress dev", "version.wrk": "wrk 4.1.0",
		"version.oha": "oha 1.4.0", "version.target": "bench/target (fasthttp v1.74.0)",
		"skipped.hey": "the Debian package hey could not be installed",
		"note.wrk":    "wrk has no rate option (wrk2 would), so it runs only in the closed-loop scenario 1",
	}, GoBench: "BenchmarkSend-2  100  1000 ns/op  0 B/op  0 allocs/op"}
	add := func(scen, cs, tool string, rep int, rate float64, conns int, secs float64, f func(r *Run)) {
		r := &Run{
			ID: fmt.Sprintf("s%s-%s-%s-r%d", scen, cs, tool, rep), Scenario: scen, Case: cs, Tool: tool, Rep: rep,
			Mode: "rate", Rate: rate, Conns: conns, Seconds: secs, CPU: 2 + 0.1*float64(rep), RSSKB: 20000 + 512*float64(rep),
			Wall: secs + 0.2, TargetCPU: secs / 2, Served: rate*secs - float64(rep), Served200: rate*secs - float64(rep),
			Cmd: fmt.Sprintf("/repo/bench/.tools/%s --rate %g --out /runs/x/runs/%s-r%d/out.txt", tool, rate, tool, rep),
			Out: ToolResult{Completed: rate * secs, RPS: rate, P50: 0.2 + 0.01*float64(rep), P99: 1 + 0.1*float64(rep), HasLat: true},
		}
		if f != nil {
			f(r)
		}
		d.Runs = append(d.Runs, r)
	}
	for rep := 1; rep <= 3; rep++ {
		for i, tool := range []string{"wrk", "rpcstress", "oha"} {
			add("1", "closed", tool, rep, 0, 50, 10, func(r *Run) {
				r.Mode, r.Served, r.CPU = "closed", 1e6+1e4*float64(i*3+rep), 9+0.5*float64(i)-0.1*float64(rep)
				r.Out.RPS = r.Served/10 - 7
			})
			for _, rate := range []float64{5000, 20000, 50000} {
				if tool != "wrk" {
					add("2", fmt.Sprint(rate), tool, rep, rate, 50, 10, func(r *Run) { r.CPU = rate / 1e4 * (1.2 - 0.1*float64(i)) })
				}
			}
			if tool == "wrk" {
				continue
			}
			add("4", "delay2ms", tool, rep, 20000, 100, 10, func(r *Run) {
				r.TargetFlags, r.Out.P50, r.Out.P99 = "--delay 2ms", 3.1+0.1*float64(i*rep), 5.3+0.2*float64(rep)
			})
			add("5", "stall", tool, rep, 1000, 10, 10, func(r *Run) {
				r.TargetFlags, r.Out.P99 = "--stall-every 2s --stall-for 200ms", 0.5+0.1*float64(rep) // coordinated omission
				if tool == "rpcstress" {
					r.Out.P99 = 182 + float64(rep)
				}
			})
			add("6", "bucket", tool, rep, 2000, 50, 10, func(r *Run) {
				r.TargetFlags = "--rate 1000 --burst 10"
				r.Served200 = 10008 - 150*float64(i) - float64(rep)
				r.Served429, r.Served = 20000-r.Served200, 20000
			})
		}
		// rpcstress --send-tick 10ms at the fixed rates: cheaper than the default; and against
		// the token bucket, its bursts refused more.
		for _, rate := range []float64{5000, 20000, 50000} {
			add("2", fmt.Sprint(rate), "rpcstress-tick10", rep, rate, 50, 10, func(r *Run) { r.CPU = rate / 1e4 * 0.95 })
		}
		add("6", "bucket", "rpcstress-tick10", rep, 2000, 50, 10, func(r *Run) {
			r.TargetFlags = "--rate 1000 --burst 10"
			r.Served200 = 9200 - float64(rep)
			r.Served429, r.Served = 20000-r.Served200, 20000
		})
		for _, mode := range []string{"rpcstress-headless", "rpcstress-dashboard"} {
			add("7", "dashboard", mode, rep, 20000, 50, 10, func(r *Run) { r.CPU = 3 + 0.1*float64(len(mode)-18) + 0.05*float64(rep) })
		}
	}
	for _, rate := range []float64{10000, 20000, 30000} {
		add("3", fmt.Sprint(rate), "rpcstress", 1, rate, 50, 5, nil)
		add("3", fmt.Sprint(rate), "oha", 1, rate, 50, 5, func(r *Run) {
			if rate == 30000 {
				r.Served = rate * 5 * 0.9 // missed twice: the climb ends here
			}
		})
		if rate == 30000 {
			add("3", fmt.Sprint(rate), "oha", 2, rate, 50, 5, func(r *Run) { r.Served = rate * 5 * 0.95 })
		}
	}
	add("8", "soak", "rpcstress", 1, 20000, 50, 300, func(r *Run) {
		for s := 0.0; s <= 300; s += 5 {
			r.RSS = append(r.RSS, RSSPoint{T: s, KB: 26000 + 3*s + 900*float64(int(s)%20/5-1)})
		}
	})
	add("2", "5000", "bombardier", 1, 5000, 50, 10, func(r *Run) {
		r.RC, r.Served, r.Out = 1, 0, ToolResult{Err: "no JSON in the output"}
	})
	return d
}

// TestRenderGolden: the whole report of a made-up suite run, every section, against
// testdata/TestRenderGolden.golden (go test -update rewrites it after an intended change).
func TestRenderGolden(t *testing.T) {
	p := &report{d: suite(), dir: "/runs/x", root: "/repo"}
	golden.RequireEqual(t, p.render())
}

// TestSearchGoalTie: the max-rate goal is a rate above every peer's; a tie on the ladder (both
// held 20,000/s, neither 30,000/s) is not met, one step more is.
func TestSearchGoalTie(t *testing.T) {
	for _, tt := range []struct {
		ours float64
		want string
	}{{20000, "✗ not met"}, {30000, "✓ met"}} {
		d := &Data{Env: Env{}}
		for _, tool := range []string{"rpcstress", "oha"} {
			for _, rate := range []float64{10000, 20000, 30000} {
				served := rate * 5
				if rate > 20000 && (tool == "oha" || tt.ours < rate) {
					served = rate * 4 // 80 %: missed
				}
				d.Runs = append(d.Runs, &Run{ID: fmt.Sprintf("s3-%g-%s", rate, tool), Scenario: "3", Case: fmt.Sprint(rate),
					Tool: tool, Rep: 1, Mode: "rate", Rate: rate, Conns: 50, Seconds: 5, Served: served, CPU: 1})
			}
		}
		rows := (&report{d: d}).searchGoal()
		if len(rows) != 1 || rows[0][3] != tt.want {
			t.Errorf("rpcstress held %g, oha 20000: %q, want %q", tt.ours, rows, tt.want)
		}
	}
}

// TestPeerBestLeavesOutFloors: bench/cmd/floor's designs sit beside the tools in scenario 2, and
// cost less than any of them, but the goals compare rpcstress with the peers only.
func TestPeerBestLeavesOutFloors(t *testing.T) {
	d := suite()
	want, wantV := (&report{d: d}).peerBest("2", "5000", mCPUM)
	for rep := 1; rep <= 3; rep++ {
		d.Runs = append(d.Runs, &Run{ID: fmt.Sprintf("s2-5000-floor-loop-r%d", rep), Scenario: "2", Case: "5000",
			Tool: "floor-loop", Rep: rep, Mode: "rate", Rate: 5000, Conns: 50, Seconds: 10, CPU: 0.01, Served: 50000})
	}
	p := &report{d: d}
	if s := of(p.runs("2", "5000", "floor-loop"), mCPUM); s.N != 3 || s.Median >= wantV {
		t.Fatalf("the floor's runs: %+v, want 3 below the best peer's %v", s, wantV)
	}
	if got, v := p.peerBest("2", "5000", mCPUM); got != want || v != wantV {
		t.Errorf("peerBest = %s %v, want %s %v", got, v, want, wantV)
	}
}
