package tui

import (
	"strings"
	"testing"
)

// TestLinesSubscriptions: under each second, a line per subscription with that second's
// figures, within 80 columns however long its name.
func TestLinesSubscriptions(t *testing.T) {
	st := testStats()
	subscribed(st)
	st.Subs[1].Name = strings.Repeat("名前", 30)
	var b strings.Builder
	p := NewLinePrinter(&b, 0)
	p.Header(st.Name, st.Target, st.Mode)
	p.Update(st)
	out := b.String()
	lines := strings.Split(out, "\n")
	heads := 0
	for i, l := range lines {
		if cellWidth(l) > 80 {
			t.Errorf("line %d is %d cells: %q", i+1, cellWidth(l), l)
		}
		if strings.HasPrefix(l, "    ↳ newHeads") {
			heads++
			if !strings.Contains(l, "198/200 held") || !strings.Contains(l, "spread p99 ") || !strings.Contains(l, "gaps 3") {
				t.Errorf("line %d: %q", i+1, l)
			}
		}
	}
	if heads != len(st.Timeline) {
		t.Errorf("%d newHeads lines for %d seconds:\n%s", heads, len(st.Timeline), out)
	}
}
