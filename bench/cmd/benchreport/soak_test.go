package main

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestParseRSS(t *testing.T) {
	got := parseRSS("0.1 20480\n5.1 24576\ngarbage\n10.2\n15.0 0\n20.3 25000\n")
	want := []RSSPoint{{0.1, 20480}, {5.1, 24576}, {20.3, 25000}}
	if !slices.Equal(got, want) {
		t.Fatalf("parseRSS = %v, want %v", got, want)
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
		// warm-up to 25 MB, then GC swings of ±2 MB around it with no trend: flat
		{"flat with swings", series(10000, 24000, 25000, 27000, 23000, 27000, 23000, 25000), true, true, -0.0457},
		// a steady climb of 1 MB every 30 s after warm-up: not flat, however small
		{"growing", series(10000, 20000, 20000, 21000, 22000, 23000, 24000), true, false, 0.1818},
		// never gets past the warm-up: no verdict
		{"short", series(10000, 20000, 20000), false, false, 0},
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
			if s.Flat() != c.flat || math.Abs(s.Growth-c.growth) > 0.001 {
				t.Fatalf("flat %v growth %.4f, want %v %.4f", s.Flat(), s.Growth, c.flat, c.growth)
			}
			p.scenario8()
			if out := p.b.String(); !strings.Contains(out, "## 8. Memory") || !strings.Contains(out, "| 120 |") {
				t.Fatalf("scenario 8 section missing rows:\n%s", out)
			}
		})
	}
}
