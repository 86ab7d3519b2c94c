package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/termcheck"
)

// hostile is text a target or a file could hold: an OSC title change ended by BEL, a screen
// clear, NUL, a right-to-left override, a one-byte CSI (U+009B), DEL and a byte that is not
// UTF-8.
const hostile = "bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil\u009b\x7f\xff"

// hostileShown is the start of hostile as every output must show it.
const hostileShown = `bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil`

// hostileSnapshot is testSnapshot with hostile text everywhere a snapshot holds text, as an
// old snapshot written before output was escaped (or a crafted file) would have it: the
// profile's name, the target, host, tool, end reason, shard, merged runs, map keys (statuses,
// error classes, RPC codes, request names), RPC messages, rate-limit headers, stage names
// and events.
func hostileSnapshot() *engine.Snapshot {
	s := testSnapshot()
	s.Profile, _ = json.Marshal(map[string]any{"name": "p" + hostile})
	s.Target = "http://127.0.0.1:8899/" + hostile
	s.Host, s.Tool.Version, s.EndReason, s.Shard = "h"+hostile, "v"+hostile, "r"+hostile, "1/2"+hostile
	s.Merged = []string{"m" + hostile}
	s.Totals.Status["9"+hostile] = 1
	s.Totals.Errors["e"+hostile] = 1
	s.Totals.Completed += 2
	s.Totals.Sent += 2
	s.Totals.Scheduled += 2
	s.Totals.RPCErrors["-1"+hostile] = 1
	s.Totals.ByRequest = map[string]engine.Summary{"q" + hostile: {Completed: 2}, "getSlot": {Completed: 1}}
	s.RPCMessages = map[string]string{"-32602": hostile, "-1" + hostile: hostile}
	s.RateLimitHeaders = map[string]string{"X-RateLimit-" + hostile: hostile}
	s.Stages[0].Spec.Name = "s" + hostile
	s.Events = append(s.Events, engine.Event{T: 3, Kind: "k" + hostile, Detail: hostile})
	s.Timeline = []engine.Row{{T: 0, TargetRate: 50, RPS: 7, OK: 5, Failed: 2,
		Status:    map[string]int64{"200": 5, "9" + hostile: 1},
		Errors:    map[string]int64{"e" + hostile: 1},
		RPCErrors: map[string]int64{"-1" + hostile: 1}}}
	return s
}

// Every static output of a snapshot with hostile text shows it escaped.
func TestOutputsEscapeHostileText(t *testing.T) {
	s := hostileSnapshot()
	outputs := []struct {
		name  string
		write func(io.Writer) error
		shown bool // the RPC message is part of this output
	}{
		{"text report", func(w io.Writer) error { return WriteReport(w, s, 0) }, true},
		{"csv", func(w io.Writer) error { return WriteCSV(w, s) }, false},
		{"html", func(w io.Writer) error { return WriteHTML(w, s) }, true},
		{"json", func(w io.Writer) error { return WriteJSON(w, s) }, false},
		{"compare", func(w io.Writer) error {
			return WriteCompare(w, []CompareRun{{File: "a" + hostile, Snapshot: s}, {File: "b.json", Snapshot: s}}, 0)
		}, false},
		{"summary line", func(w io.Writer) error { WriteSummaryLine(w, s); return nil }, false},
		{"headless lines", func(w io.Writer) error {
			p := NewLinePrinter(w, 0)
			p.Header("p"+hostile, s.Target, s.Mode)
			p.Update(&engine.Stats{Timeline: s.Timeline, Events: s.Events, Done: true})
			return p.Err()
		}, true},
	}
	for _, o := range outputs {
		t.Run(o.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := o.write(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if bad := termcheck.Obeyed(out, false); bad != "" {
				t.Errorf("%s in the output", bad)
			}
			if o.shown && !strings.Contains(out, hostileShown) {
				t.Errorf("the output does not show %s:\n%s", hostileShown, out)
			}
		})
	}
}

// The JSON summary keeps the hostile text exactly: its escapes read back as the original.
func TestJSONKeepsHostileText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, hostileSnapshot()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		RPCMessages map[string]string `json:"rpc_messages"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// encoding/json writes the byte that is not UTF-8 as U+FFFD, as it always has.
	if want := strings.ToValidUTF8(hostile, "\ufffd"); got.RPCMessages["-32602"] != want {
		t.Errorf("read back %q, want %q", got.RPCMessages["-32602"], want)
	}
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
			st.Name, st.Target = "p"+hostile, "http://127.0.0.1:8899/"+hostile
			st.Stages[1].Spec.Name = "s" + hostile
			st.Total.ByRequest["q"+hostile] = st.Total.ByRequest["getSlot"]
			delete(st.Total.ByRequest, "getSlot")
			st.RPCMessage["-32602"] = hostile
			st.Events = append(st.Events, engine.Event{T: 64, Kind: "save", Detail: hostile})
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
			if !strings.Contains(screen, `p`+hostileShown[:12]) || !strings.Contains(screen, `\x1b]0;pwned`) {
				t.Errorf("the view does not show the escaped text:\n%s", screen)
			}
		})
	}
}
