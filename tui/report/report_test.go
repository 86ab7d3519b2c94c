package report

import (
	"bytes"
	"errors"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
	"strings"
	"testing"
	"time"
)

func TestWriteReportGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReport(&b, fixture.Snapshot(), 0); err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, b.Bytes())
	fixture.CheckPlainAndNarrow(t, b.String())
}

func TestWriteReportBrokenInvariant(t *testing.T) {
	s := fixture.Snapshot()
	s.Totals.Sent = 2480              // 10 requests vanished between scheduled and sent
	s.Stages[1].Summary.Completed = 1 // and a stage lost its outcomes
	var b bytes.Buffer
	if err := WriteReport(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Invariant ✗",
		"✗ scheduled 2500 ≠ sent 2480 + dropped 10",
		"✗ sent 2480 ≠ completed 2485 + inflight 5",
		"✗ stage 2: sent 1990 ≠ completed 1 + inflight 5",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "✓") {
		t.Errorf("a broken invariant must not show ✓:\n%s", out)
	}
}

func TestWriteReportPartialSnapshot(t *testing.T) {
	// A run cut short before it ended: no profile, no end time, nothing completed.
	s := fixture.Snapshot()
	s.Profile = nil
	s.EndedAt = time.Time{}
	var b bytes.Buffer
	if err := WriteReport(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rpcstress report: (unnamed)", "partial run"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestWriteReportWriteError(t *testing.T) {
	err := WriteReport(fixture.FailingWriter{}, fixture.Snapshot(), 0)
	if !errors.Is(err, fixture.ErrDiskFull) {
		t.Fatalf("WriteReport error = %v, want it to wrap %v", err, fixture.ErrDiskFull)
	}
}

func TestWriteReportNil(t *testing.T) {
	if err := WriteReport(&bytes.Buffer{}, nil, 0); err == nil {
		t.Fatal("WriteReport(nil) = nil, want an error")
	}
}

// TestReportDurationIsStartToEnd: the header's duration is the run's, from start to end. A
// find-limit run's totals count only its probes' measured windows (21 s of a 29 s search): the
// header said 21 s.
func TestReportDurationIsStartToEnd(t *testing.T) {
	s := fixture.Snapshot()
	s.Search = fixture.RichSearch()
	s.Totals.DurationS = 21
	s.EndedAt = s.StartedAt.Add(29 * time.Second)
	var b bytes.Buffer
	if err := WriteReport(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "duration    29s\n") {
		t.Errorf("the header does not say the search took 29 s:\n%s", b.String())
	}
	page := writeHTMLPage(t, s)
	if !strings.Contains(page, "<td>duration</td><td>29s</td>") {
		t.Error("the HTML page does not say the search took 29 s")
	}
}
