package report

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// chainSnapshot is the fixture's run following an EVM head from 20,000,000: a block every
// two seconds in stage 1, with the reference node a block ahead; in stage 2 (under load) the
// target stands still for its last 6 seconds while the reference moves on.
func chainSnapshot() *engine.Snapshot {
	s := fixture.SnapshotWithTimeline()
	s.Chain = &engine.ChainStats{Name: engine.ChainEVM, HeadEveryS: 2, HeadStart: 20_000_000,
		Target: engine.NodeHead{Head: 20_000_007, Reads: 10, Failures: 2, LastError: "HTTP 429 Too Many Requests"},
		Ref:    &engine.NodeHead{URL: "https://ref.example/", Head: 20_000_012, Reads: 10}}
	for i := range s.Timeline {
		r := &s.Timeline[i]
		h := uint64(20_000_000 + min(r.T, 14)/2)
		ref := uint64(20_000_001 + r.T/2)
		r.Head, r.RefHead = &h, &ref
	}
	return s
}

// TestReportChain: the report says, per stage, the head at its end, its advance and pace,
// and the largest lag; and the reads and their failures. A run without a head has no such
// section.
func TestReportChain(t *testing.T) {
	out := reportText(t, chainSnapshot())
	checkContains(t, "the report", out,
		"Chain head (evm: eth_blockNumber every 2s, apart from the load)",
		"  #        head  advance  per min  max lag",
		"  1  20,000,004       +4     24.0        1",
		"  2  20,000,007       +3     18.0        3")
	// The note is wrapped to the width: read as one line.
	checkContains(t, "the report's note", strings.Join(strings.Fields(out), " "),
		"from head 20,000,000 at the start; in blocks; max lag behind the reference (negative: ahead);"+
			" reads: target 10 (2 failed, last: HTTP 429 Too Many Requests); reference https://ref.example/ 10 (none failed)")
	fixture.CheckPlainAndNarrow(t, out)
	if out := reportText(t, fixture.SnapshotWithTimeline()); strings.Contains(out, "Chain head") {
		t.Errorf("a run without a head reports one:\n%s", out)
	}
}
