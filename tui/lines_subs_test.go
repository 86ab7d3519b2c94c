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

// TestLinesSubscriptionsTargets: with several targets each target's line of a second has its
// own subscriptions' lines under it.
func TestLinesSubscriptionsTargets(t *testing.T) {
	st := testStats()
	subscribedTargets(2)(st)
	var b strings.Builder
	p := NewLinePrinter(&b, 0)
	p.Header(st.Name, st.Target, st.Mode)
	p.Update(st)
	lines := strings.Split(b.String(), "\n")
	var under []string // the newHeads line under each target's line, by target
	for i, l := range lines {
		if strings.HasPrefix(l, "    ↳ newHeads") && i > 0 {
			for k := i - 1; k >= 0; k-- {
				if f := strings.Fields(lines[k]); len(f) > 2 && !strings.HasPrefix(lines[k], "    ↳") {
					under = append(under, f[1]+" "+strings.Fields(l)[2])
					break
				}
			}
		}
	}
	if len(under) != 2*len(st.Timeline) || under[0] != "A 198/200" || under[1] != "B 150/200" {
		t.Errorf("the targets' subscription lines: %q\n%s", under[:min(len(under), 4)], b.String())
	}
}
