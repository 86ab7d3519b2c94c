package tui

import (
	"bytes"
	"errors"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/rpcstress/rpcstress/tui/textfmt"
	"strings"
	"testing"
	"time"
)

func TestWriteReportGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReport(&b, testSnapshot(), 0); err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, b.Bytes())
	checkPlainAndNarrow(t, b.String())
}

func TestWriteReportBrokenInvariant(t *testing.T) {
	s := testSnapshot()
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
	s := testSnapshot()
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
	err := WriteReport(failingWriter{}, testSnapshot(), 0)
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("WriteReport error = %v, want it to wrap %v", err, errDiskFull)
	}
}

func TestWriteReportNil(t *testing.T) {
	if err := WriteReport(&bytes.Buffer{}, nil, 0); err == nil {
		t.Fatal("WriteReport(nil) = nil, want an error")
	}
}

func TestWriteSummaryLine(t *testing.T) {
	var b bytes.Buffer
	WriteSummaryLine(&b, testSnapshot())
	want := "rpcstress getBalance: 2490 sent, 2485 completed in 20s (124.2/s); " +
		"ok 68.2% limited 31.4% failed 0.4%; p50 3.21 p99 22.8 ms; in 61.7 kB/s; dropped 10; " +
		"tester saturated 2s; invariant ✓\n"
	if b.String() != want {
		t.Errorf("summary line\n got %q\nwant %q", b.String(), want)
	}
}

// checkPlainAndNarrow fails when the text has ANSI escapes or a line over textfmt.DefaultWidth.
func checkPlainAndNarrow(t *testing.T, text string) {
	t.Helper()
	if strings.Contains(text, "\x1b") {
		t.Error("output contains an ANSI escape")
	}
	checkWidth(t, text, textfmt.DefaultWidth)
}

// checkWidth fails for every line of text wider than width terminal cells.
func checkWidth(t *testing.T, text string, width int) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if n := cellWidth(l); n > width {
			t.Errorf("line %d is %d cells wide (max %d): %q", i+1, n, width, l)
		}
	}
}

var errDiskFull = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// TestReportDurationIsStartToEnd: the header's duration is the run's, from start to end. A
// find-limit run's totals count only its probes' measured windows (21 s of a 29 s search): the
// header said 21 s.
func TestReportDurationIsStartToEnd(t *testing.T) {
	s := testSnapshot()
	s.Search = richSearch()
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
