package engine_test

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestHeadsNodeProcess is not a test: it is the mock node of TestSubscriptionsMemory, run in a
// process of its own (the test binary again) so the memory measured is the subscribers' alone.
// It prints its URL and serves until its standard input closes.
func TestHeadsNodeProcess(t *testing.T) {
	if os.Getenv("RPCSTRESS_HEADS_NODE") != "1" {
		t.Skip("the heads node of TestSubscriptionsMemory, run as a process of its own")
	}
	_, url, _ := startHeads(t, mocknode.Config{BlockTime: 200 * time.Millisecond})
	os.Stdout.WriteString(url + "\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
}

// TestSubscriptionsMemory: 1,000 newHeads subscribers hold their subscriptions in under 100 MB
// of rpcstress's memory (heap and goroutine stacks, measured after a collection against the
// same before they started), receiving heads five times a second, at under one allocation a
// notification.
func TestSubscriptionsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,000 connections")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHeadsNodeProcess$")
	cmd.Env = append(os.Environ(), "RPCSTRESS_HEADS_NODE=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ws://") {
		t.Fatalf("the heads node said %q (%v)", line, err)
	}
	url := strings.TrimSpace(line)

	before := inUse()
	r, err := engine.NewRunner(subsConfig(url, 1000, 0, time.Minute), engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *engine.Snapshot, 1)
	go func() {
		snap, _ := r.Run(t.Context(), engine.SnapshotMeta{})
		done <- snap
	}()
	deadline := time.Now().Add(30 * time.Second)
	for st := r.Stats(); len(st.Subs) == 0 || st.Subs[0].Subscribed < 1000 || st.Subs[0].Notifications < 5000; st = r.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("not all 1,000 subscribed and receiving in 30 s: %+v", st.Subs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	held := inUse() - before
	perNote := mallocsPerNote(r, 2*time.Second)
	r.Controller().Stop("test")
	snap := <-done
	s := snap.Subscriptions[0]
	t.Logf("1,000 subscribers hold %.1f MB (heap and stacks); %d notifications, spread p99 %.1f ms; %.2f allocations a notification (the whole process's)",
		float64(held)/1e6, s.Notifications, s.Spread.P99, perNote)
	if held > 100<<20 {
		t.Errorf("1,000 subscribers hold %.1f MB, over 100 MB", float64(held)/1e6)
	}
	if *s.Gaps != 0 {
		t.Errorf("%d gaps", *s.Gaps)
	}
	// A notification is read into the subscriber's buffers and filed by the book without
	// allocating; what is left is the run's own work (rows, views), under one a notification.
	if perNote >= 1 {
		t.Errorf("%.2f allocations a notification, want under one", perNote)
	}
}

// mallocsPerNote is the process's allocations per notification received over d: the
// subscribers', the book's and the rest of the run's, all of which a notification costs.
func mallocsPerNote(r *engine.Runner, d time.Duration) float64 {
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	n0 := r.Stats().Subs[0].Notifications
	time.Sleep(d)
	runtime.ReadMemStats(&ms1)
	n1 := r.Stats().Subs[0].Notifications
	return float64(ms1.Mallocs-ms0.Mallocs) / float64(max(n1-n0, 1))
}

// inUse is the heap and goroutine stacks in use after a collection.
func inUse() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse + ms.StackInuse)
}
