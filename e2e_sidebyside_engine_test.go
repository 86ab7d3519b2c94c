package main

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
	"github.com/rpcstress/rpcstress/profiles"
)

// TestE2ESideBySideEngineWiring: a loaded profile whose Config names two targets (as the
// profile's [[target]] tables will) runs through the command's own path, headless: both
// nodes get every request, and the snapshot written holds both targets, each with the node's
// own count.
func TestE2ESideBySideEngineWiring(t *testing.T) {
	t.Parallel()
	nodeA, urlA := nodetest.Start(t, mocknode.Config{})
	nodeB, urlB := nodetest.Start(t, mocknode.Config{})
	p, err := profiles.Load(writeProfile(t, urlA, 4, getBalance+stage("100/s", "1s")), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(profiles.Overrides{}); err != nil { // as run does
		t.Fatal(err)
	}
	p.Config.Targets = []engine.Target{{Name: "a", URL: urlA, DisplayURL: urlA}, {Name: "b", URL: urlB, DisplayURL: urlB}}
	out := filepath.Join(t.TempDir(), "run.json")
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	f := newRunFlags(fs)
	if err := fs.Parse([]string{"--headless", "--out", out}); err != nil {
		t.Fatal(err)
	}
	c, stdout, stderr := cliSetup{}.newCLI()
	if code := c.execute(context.Background(), p, f, nil); code != exitOK {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", code, stderr, stdout)
	}
	snap, err := readSnapshot(t, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Targets) != 2 {
		t.Fatalf("%d targets in the snapshot", len(snap.Targets))
	}
	for i, n := range []*mocknode.Node{nodeA, nodeB} {
		tr := snap.Targets[i]
		if err := tr.Totals.CheckInvariant(); err != nil || tr.Totals.Completed != 100 || n.Stats().Requests != 100 {
			t.Errorf("target %s: completed %d, node %d (%v)", tr.Name, tr.Totals.Completed, n.Stats().Requests, err)
		}
	}
	if !strings.Contains(stdout.String(), "snapshot: "+out) {
		t.Errorf("the run did not say where its snapshot went:\n%s", stdout)
	}
}

// The runs of BenchmarkSideBySideCPU: long enough that start and drain weigh little.
const (
	cpuRate = 2000
	cpuFor  = 8 * time.Second
)

// BenchmarkSideBySideCPU is rpcstress's own CPU per scheduled request with one target and with
// two side by side at the same rate, against mock nodes in processes of their own, so that
// only the tester's CPU is counted (the in-process BenchmarkHotPath* count their in-memory
// servers too). The goals: two targets at most 2.1× one, and comparing their answers
// at most 25 % more. Compare the cases' cpu-µs/req from runs interleaved with -count.
func BenchmarkSideBySideCPU(b *testing.B) {
	bin := buildBinary(b)
	var urls []string
	for range 2 {
		addr := closedPort(b)
		if _, err := startMockProcess(b, bin, addr); err != nil {
			b.Fatal(err)
		}
		urls = append(urls, "http://"+addr+"/")
	}
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}`)
	for _, tc := range []struct {
		name    string
		targets int
		compare bool
	}{{"one", 1, false}, {"two", 2, false}, {"two-compared", 2, true}} {
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				cfg := &engine.Config{Name: "cpu", URL: urls[0], DisplayURL: urls[0], Timeout: 2 * time.Second, Connections: 16,
					Mode: engine.ModeOpen, Limits: engine.DefaultLimits(), Plan: engine.Plan{Stages: []engine.Stage{{Rate: cpuRate, Duration: cpuFor}}},
					Requests: []engine.Request{{Name: "getBalance", Weight: 1, Items: 1, Body: body, RPC: engine.ParseRPCCalls(body)}}}
				for i := range tc.targets {
					if tc.targets > 1 { // one target is the plain run, without Targets
						cfg.Targets = append(cfg.Targets, engine.Target{Name: string(rune('a' + i)), URL: urls[i], DisplayURL: urls[i]})
					}
				}
				cfg.CompareAnswers = tc.compare
				r, err := engine.NewRunner(cfg, engine.RunOptions{})
				if err != nil {
					b.Fatal(err)
				}
				cpu0 := processCPU(b)
				snap, err := r.Run(context.Background(), engine.SnapshotMeta{})
				if err != nil {
					b.Fatal(err)
				}
				cpu := processCPU(b) - cpu0
				b.ReportMetric(float64(cpu.Microseconds())/float64(snap.Totals.Scheduled), "cpu-µs/req")
				b.ReportMetric(snap.Stages[0].Summary.RPS, "rps")
			}
		})
	}
}

// processCPU is the CPU time this process has used (user and system).
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
