package runtext

import (
	"bytes"
	"testing"

	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

func TestWriteSummaryLine(t *testing.T) {
	var b bytes.Buffer
	WriteSummaryLine(&b, fixture.Snapshot())
	want := "rpcstress getBalance: 2490 sent, 2485 completed in 20s (124.2/s); " +
		"ok 68.2% limited 31.4% failed 0.4%; p50 3.21 p99 22.8 ms; in 61.7 kB/s; dropped 10; " +
		"tester saturated 2s; invariant ✓\n"
	if b.String() != want {
		t.Errorf("summary line\n got %q\nwant %q", b.String(), want)
	}
}
