package tui

import (
	"bytes"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"regexp"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/termcheck"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
	"github.com/rpcstress/rpcstress/tui/runtext"
)

// The live UI's plain-text outputs (the headless lines and the summary line) of a snapshot with
// hostile text show it escaped (the static outputs' are report.TestOutputsEscapeHostileText).
func TestLinesEscapeHostileText(t *testing.T) {
	s := fixture.HostileSnapshot()
	var lines, summary bytes.Buffer
	p := NewLinePrinter(&lines, 0)
	p.Header("p"+fixture.Hostile, s.Target, s.Mode)
	p.Update(&engine.Stats{Timeline: s.Timeline, Events: s.Events, Done: true})
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	runtext.WriteSummaryLine(&summary, s)
	t.Run("headless lines", func(t *testing.T) { fixture.CheckEscaped(t, lines.String(), true) })
	t.Run("summary line", func(t *testing.T) { fixture.CheckEscaped(t, summary.String(), false) })
}

// ourStyles matches the SGR sequences the dashboard's own styles write.
var ourStyles = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// The dashboard shows hostile text from the run (name, target, stage name, request names, an
// RPC message, an event) escaped, in its panes and its window title, at both sizes, and the
// terminal never receives the hostile sequences.
func TestDashboardEscapesHostileText(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			st := testStats()
			st.Name, st.Target = "p"+fixture.Hostile, "http://127.0.0.1:8899/"+fixture.Hostile
			st.Stages[1].Spec.Name = "s" + fixture.Hostile
			st.Total.ByRequest["q"+fixture.Hostile] = st.Total.ByRequest["getSlot"]
			delete(st.Total.ByRequest, "getSlot")
			st.RPCMessage["-32602"] = fixture.Hostile
			st.Events = append(st.Events, engine.Event{T: 64, Kind: "save", Detail: fixture.Hostile})
			d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats { return st }, Control: &fakeController{}})
			final, raw := runDashboard(t, d, sz.w, sz.h, []string{"TERM=xterm-256color"}, "pwned")
			for _, seq := range []string{"\x1b]0;pwned", "\x1b[2J\x00", "\x00", "\u202e", "\u009b", "\xff"} {
				if bytes.Contains(raw, []byte(seq)) {
					t.Errorf("the terminal received %q", seq)
				}
			}
			v := final.View()
			if bad := termcheck.Obeyed(ourStyles.ReplaceAllString(v.Content, ""), false); bad != "" {
				t.Errorf("%s in the view", bad)
			}
			if bad := termcheck.Obeyed(v.WindowTitle, false); bad != "" {
				t.Errorf("%s in the window title %q", bad, v.WindowTitle)
			}
			screen := ansi.Strip(v.Content)
			checkFits(t, screen, sz.w, sz.h)
			if !strings.Contains(screen, `p`+fixture.HostileShown[:12]) || !strings.Contains(screen, `\x1b]0;pwned`) {
				t.Errorf("the view does not show the escaped text:\n%s", screen)
			}
		})
	}
}
