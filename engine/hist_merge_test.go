package engine

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// recorded is a histogram of the given latencies, encoded as a snapshot holds it, and the
// percentiles read back from it.
func recorded(t *testing.T, sigFigs int, ms ...float64) (string, Percentiles) {
	t.Helper()
	h := newLatencyHist(sigFigs)
	for _, v := range ms {
		h.record(int64(v * float64(time.Millisecond)))
	}
	enc, err := h.encode(&histEncoder{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeHistogram(enc)
	if err != nil {
		t.Fatal(err)
	}
	return enc, percentilesOf(back)
}

// TestMergedHistogramsRoundTrip: histograms added alone encode back to the very bytes they were
// read from, at their own precision (the run's three significant figures, a request's two), and
// their percentiles are those of the recorded values.
func TestMergedHistogramsRoundTrip(t *testing.T) {
	for _, sigFigs := range []int{histSigFigs, 2} {
		total, want := recorded(t, sigFigs, 1, 2, 3, 40, 50)
		s1, _ := recorded(t, sigFigs, 1, 2, 3)
		s2, _ := recorded(t, sigFigs, 40, 50)
		svc, _ := recorded(t, sigFigs, 0.5, 1, 1.5, 20, 30)
		ok, _ := recorded(t, sigFigs, 1, 2, 3, 40)
		in := Histograms{Total: total, Stages: []string{s1, s2}, Service: HistogramSet{Total: svc, Stages: []string{svc, svc}},
			ByOutcome: map[string]HistogramSet{"ok": {Total: ok, Stages: []string{s1, ok}}}}
		var m MergedHistograms
		if err := m.Add(in); err != nil {
			t.Fatal(err)
		}
		out, err := m.Encode(0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, in) {
			t.Errorf("%d significant figures: encoded back differently", sigFigs)
		}
		var sum Summary
		m.SetPercentiles(&sum, -1)
		if sum.Latency != want {
			t.Errorf("%d significant figures: latency %+v, want %+v", sigFigs, sum.Latency, want)
		}
	}
}

// TestMergedHistogramsMerge: histograms of several snapshots merge stage by stage into what
// recording every value in one histogram gives; a stage only some ran holds theirs alone.
func TestMergedHistogramsMerge(t *testing.T) {
	a1, _ := recorded(t, histSigFigs, 1, 2)
	a2, _ := recorded(t, histSigFigs, 30)
	aTotal, _ := recorded(t, histSigFigs, 1, 2, 30)
	b1, _ := recorded(t, histSigFigs, 3, 4, 5)
	none, _ := recorded(t, histSigFigs)
	_, wantTotal := recorded(t, histSigFigs, 1, 2, 30, 3, 4, 5)
	_, wantStage1 := recorded(t, histSigFigs, 1, 2, 3, 4, 5)
	_, wantStage2 := recorded(t, histSigFigs, 30)
	var m MergedHistograms
	for _, h := range []Histograms{
		{Total: aTotal, Stages: []string{a1, a2}, ByOutcome: map[string]HistogramSet{"failed": {Total: a2, Stages: []string{none, a2}}}},
		{Total: b1, Stages: []string{b1}}, // a shard that ran one stage, with no service histograms
	} {
		if err := m.Add(h); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		stage int
		want  Percentiles
		fails bool // latency by outcome holds "failed"
	}{
		{-1, wantTotal, true},     // the whole run
		{0, wantStage1, false},    // both shards' first stage; none failed there
		{1, wantStage2, true},     // the second stage, one shard's
		{2, Percentiles{}, false}, // a stage no shard ran
	}
	for _, tt := range tests {
		var s Summary
		m.SetPercentiles(&s, tt.stage)
		_, fails := s.LatencyByOutcome["failed"]
		if s.Latency != tt.want || fails != tt.fails || s.Service != (Percentiles{}) {
			t.Errorf("stage %d: latency %+v, by outcome %v, service %+v; want %+v, failed %v, no service",
				tt.stage, s.Latency, s.LatencyByOutcome, s.Service, tt.want, tt.fails)
		}
	}
}

// TestMergedHistogramsAddStage: each probe's window becomes a stage of its own and part of the
// whole; a probe without histograms leaves an empty one in its place, so stages stay aligned.
func TestMergedHistogramsAddStage(t *testing.T) {
	p1, _ := recorded(t, histSigFigs, 1, 2)
	p3, _ := recorded(t, histSigFigs, 7)
	_, whole := recorded(t, histSigFigs, 1, 2, 7)
	empty, _ := recorded(t, histSigFigs)
	var m MergedHistograms
	// The last stage of a probe's run is its measured window: only that one is read.
	if err := m.AddStage(0, Histograms{Stages: []string{"junk", p1}, ByOutcome: map[string]HistogramSet{"ok": {Stages: []string{"junk", p1}}}}, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.AddStage(2, Histograms{Stages: []string{p3}, ByOutcome: map[string]HistogramSet{"ok": {Stages: []string{p3}}}}, 0); err != nil {
		t.Fatal(err)
	}
	var bad MergedHistograms
	if err := bad.AddStage(1, Histograms{Stages: []string{"junk"}}, 0); err == nil || !strings.Contains(err.Error(), "latency histogram of stage 2") {
		t.Errorf("a window that does not decode: %v", err)
	}
	out, err := m.Encode(4)
	if err != nil {
		t.Fatal(err)
	}
	wantStages := []string{p1, empty, p3, empty}
	if !reflect.DeepEqual(out.Stages, wantStages) || !reflect.DeepEqual(out.ByOutcome["ok"].Stages, wantStages) {
		t.Errorf("stages are not the probes' in their places, with empty ones between")
	}
	if out.Service.Total != "" || out.Service.Stages != nil {
		t.Errorf("service histograms from none: %+v", out.Service)
	}
	var s Summary
	m.SetPercentiles(&s, -1)
	if s.Latency != whole || s.LatencyByOutcome["ok"] != whole {
		t.Errorf("whole %+v (ok %+v), want %+v", s.Latency, s.LatencyByOutcome["ok"], whole)
	}
}

// TestMergedHistogramsErrorsSayWhich: a histogram that does not decode is named by kind and
// stage.
func TestMergedHistogramsErrorsSayWhich(t *testing.T) {
	good, _ := recorded(t, histSigFigs, 1)
	tests := []struct {
		h    Histograms
		want string
	}{
		{Histograms{Total: "junk"}, "latency histogram:"},                                                                       // the whole run's
		{Histograms{Total: good, Stages: []string{good, "junk"}}, "latency histogram of stage 2"},                               // a stage's
		{Histograms{Total: good, Service: HistogramSet{Total: good, Stages: []string{"junk"}}}, "service histogram of stage 1"}, // another kind
		{Histograms{Total: good, ByOutcome: map[string]HistogramSet{"limited": {Total: "junk"}}}, "limited histogram"},          // an outcome's
	}
	for _, tt := range tests {
		var m MergedHistograms
		if err := m.Add(tt.h); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want one naming %q", err, tt.want)
		}
	}
}
