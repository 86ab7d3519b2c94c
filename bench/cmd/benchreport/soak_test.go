package main

import (
	"strings"
	"testing"
)

func TestParseRSS(t *testing.T) {
	got := parseRSS("0.1 20480\n5.1 24576\ngarbage\n10.2\n15.0 0\n20.3 25000\n")
	want := []RSSPoint{{0.1, 20480}, {5.1, 24576}, {20.3, 25000}}
	if len(got) != len(want) {
		t.Fatalf("parseRSS = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("parseRSS[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestSoak(t *testing.T) {
	series := func(kbs ...float64) []RSSPoint {
		var out []RSSPoint
		for i, kb := range kbs {
			out = append(out, RSSPoint{T: float64(i) * 30, KB: kb})
		}
		return out
	}
	cases := []struct {
		name     string
		rss      []RSSPoint
		ok, flat bool
		growth   float64
	}{
		// settles at 60 s on 25 MB and ends there: flat
		{"flat", series(10000, 24000, 25000, 25200, 25000), true, true, 0},
		// grows 20 % after warm-up: not flat, however small
		{"growing", series(10000, 20000, 20000, 22000, 24000), true, false, 0.2},
		// never reaches the warm-up: no verdict
		{"short", series(10000, 20000), false, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &Run{ID: "s8", Scenario: "8", Case: "soak", Tool: "rpcstress", Seconds: 300, Served: 6e6, RSS: c.rss}
			p := &report{d: &Data{Runs: []*Run{r}}}
			s, ok := p.soak()
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if s.Flat() != c.flat || !near(s.Growth, c.growth) {
				t.Fatalf("flat %v growth %v, want %v %v", s.Flat(), s.Growth, c.flat, c.growth)
			}
			p.scenario8()
			if out := p.b.String(); !strings.Contains(out, "## 8. Memory") || !strings.Contains(out, "| 120 |") {
				t.Fatalf("scenario 8 section missing rows:\n%s", out)
			}
		})
	}
}
