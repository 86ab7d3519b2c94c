package main

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestErrorLines: an error shown on a terminal fits its width, every word of it kept in order,
// its continuation lines indented under the line they continue and a profile's list of
// problems keeping its own indent.
func TestErrorLines(t *testing.T) {
	for _, tt := range []struct {
		name  string
		text  string
		width int
		lines int // at least
	}{
		{"short stays one line", "rpcstress: --fps 0: use 1 to 60", 80, 1},
		{"send tick", "rpcstress: profiles/x.toml:3: send_tick: 1h0m0s is out of range: use 100µs to 100ms (default 1ms); a coarser tick costs less CPU and sends up to rate × tick at once", 80, 2},
		{"a long path", "rpcstress: open /tmp/" + strings.Repeat("very-long-folder-name/", 6) + "p.toml: no such file or directory", 60, 3},
		{"a list of problems", "rpcstress: profiles/x.toml has 2 problems:\n  profiles/x.toml:3: rate: \"fast\" is not a rate; use a number per second, such as \"500/s\", or \"2k/s\"\n  profiles/x.toml:9: duration: missing", 50, 5},
		{"narrower than 80", "rpcstress: --send-tick 1h0m0s is out of range: use 100µs to 100ms (default 1ms)", 40, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := errorLines(tt.text, tt.width)
			if len(got) < tt.lines {
				t.Errorf("%d lines, want at least %d: %q", len(got), tt.lines, got)
			}
			for _, l := range got {
				if w := ansi.StringWidth(l); w > tt.width {
					t.Errorf("line of %d cells at width %d: %q", w, tt.width, l)
				}
			}
			if strings.Join(strings.Fields(strings.Join(got, "")), "") != strings.Join(strings.Fields(tt.text), "") {
				t.Errorf("text changed:\n%q\nfrom\n%q", got, tt.text)
			}
			for i, l := range got[1:] {
				if !strings.HasPrefix(l, " ") {
					t.Errorf("line %d is not indented: %q", i+2, l)
				}
			}
		})
	}
}
