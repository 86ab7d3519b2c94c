package tui

import (
	"bytes"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// sgr matches a Select Graphic Rendition sequence (text style) and captures its parameters.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourIn returns the first SGR sequence in out that sets a colour, or "".
func colourIn(out []byte) string {
	for _, m := range sgr.FindAllSubmatch(out, -1) {
		for _, p := range strings.FieldsFunc(string(m[1]), func(r rune) bool { return r == ';' || r == ':' }) {
			n, err := strconv.Atoi(p)
			if err == nil && (n >= 30 && n <= 38 || n >= 40 && n <= 48 || n >= 90 && n <= 97 || n >= 100 && n <= 107) {
				return string(m[0])
			}
		}
	}
	return ""
}

// TestDashboardGolden runs the dashboard in a real Bubble Tea program (teatest) over fixed stats
// at the sizes the issues name, and compares the screen with testdata golden files
// (go test ./tui/ -update rewrites them).
//
// The golden is the final frame as a terminal shows it (the model's view, escape sequences
// removed), not the program's raw output: that is a stream of cursor moves and partial redraws
// whose shape depends on when the renderer's frames fall, so it would not be the same twice.
// The raw output is checked for what must hold in it: the run on screen, and no colour under
// NO_COLOR.
func TestDashboardGolden(t *testing.T) {
	sizes := []struct {
		w, h int
		wait string // text that shows the program has drawn at this size
	}{
		{60, 18, "rate-limited"},
		{80, 24, "rate-limited"},
		{100, 30, "rate-limited"},
		{130, 40, "Throughput"}, // the wide layout's box title
		{150, 45, "Throughput"},
		{200, 50, "Throughput"},
	}
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			st := testStats()
			d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats { return st }, Control: &fakeController{}})
			final, raw := runDashboard(t, d, sz.w, sz.h, []string{"TERM=xterm-256color", "NO_COLOR=1"}, sz.wait)
			if c := colourIn(raw); c != "" {
				t.Errorf("colour in the output under NO_COLOR: %q", c)
			}
			screen := ansi.Strip(final.View().Content)
			checkFits(t, screen, sz.w, sz.h)
			checkBoxesClose(t, fmt.Sprintf("%dx%d", sz.w, sz.h), screen)
			teatest.RequireEqualOutput(t, []byte(screen))
		})
	}
}

// runDashboard runs d in a real Bubble Tea program (teatest) on a width × height terminal with
// the environment env until its output shows wait, then quits it. It returns the final model
// and all the program wrote.
func runDashboard(t *testing.T, d *Dashboard, width, height int, env []string, wait string) (*Dashboard, []byte) {
	t.Helper()
	tm := teatest.NewTestModel(t, d, teatest.WithInitialTermSize(width, height),
		teatest.WithProgramOptions(tea.WithEnvironment(env)))
	var raw bytes.Buffer
	teatest.WaitFor(t, io.TeeReader(tm.Output(), &raw), func(b []byte) bool {
		return bytes.Contains(b, []byte(wait))
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Dashboard)
	if _, err := io.Copy(&raw, tm.FinalOutput(t)); err != nil {
		t.Fatal(err)
	}
	return final, raw.Bytes()
}

// checkFits fails when a frame is wider or taller than the terminal: either would scroll it.
func checkFits(t *testing.T, screen string, width, height int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) > height {
		t.Errorf("%d lines on a %d-line terminal", len(lines), height)
	}
	for i, l := range lines {
		if n := cellWidth(l); n > width {
			t.Errorf("line %d is %d cells on a %d-cell terminal: %q", i+1, n, width, l)
		}
	}
}

// TestDashboardEssentialsAt80x24: what the issue says must be on the smallest screen.
func TestDashboardEssentialsAt80x24(t *testing.T) {
	d, _ := testDashboard(t, nil)
	v := view(d)
	for _, want := range []string{
		"getBalance", "http://127.0.0.1:8899", "stage 2/3", "34s left", "RUNNING", "1m5s", // header
		"target 200/s", "sent 200.0/s", "ok 122.0/s", "inflight 3", "dropped 12", // throughput
		"TESTER 23.4 ms LATE", "free the CPU others hold", // the tester's own health
		"p50", "p90", "p99", // latency
		"200", "429", "rate-limited", "limited", "timeout 4", "-32602", // codes and errors
		"events", "save: runs/getBalance", // events
		"▶   2", "400/s", "getSlot", "1749", // stages and requests, in the rows to spare
		"q quit", "? more keys", // keys
	} {
		if !strings.Contains(v, want) {
			t.Errorf("80x24 view lacks %q:\n%s", want, v)
		}
	}
	checkFits(t, v, 80, 24)
}
