package promexport

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestCollectNode: a run that watches nothing has no node series (not zeros, which would read
// as an idle node); a watched one before its first reading has only the scrape counters; a
// process that exited has no series left, the others go on.
func TestCollectNode(t *testing.T) {
	nodeSeries := func(st *engine.Stats) []string {
		c := NewCollector(Options{})
		c.SetSource(func() *engine.Stats { return st })
		got, _ := gather(t, c)
		var out []string
		for name := range got {
			if strings.HasPrefix(name, "rpcstress_node_") {
				out = append(out, name)
			}
		}
		return out
	}
	plain := fakeStats()
	plain.Watch, plain.Timeline = nil, nil
	if got := nodeSeries(plain); len(got) != 0 {
		t.Errorf("not watched: %q", got)
	}
	first := fakeStats()
	first.Timeline = nil
	if got := nodeSeries(first); len(got) != 2 {
		t.Errorf("before the first reading: %q, want the 2 scrape counters", got)
	}
	exited := fakeStats()
	exited.Timeline[1].Watch.Procs[0] = nil
	for _, name := range nodeSeries(exited) {
		if strings.Contains(name, `process="geth"`) {
			t.Errorf("an exited process still has %s", name)
		}
	}
}
