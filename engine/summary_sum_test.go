package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// sumParts are spans measured apart, as a merge or a search adds them up.
func sumParts() []Summary {
	return []Summary{
		// A shard that met a limiter: 429s, rate-limited JSON-RPC codes, two dials of 1 ms.
		{Scheduled: 100, Sent: 98, Completed: 96, Inflight: 2, Dropped: 2, Status: map[string]int64{"200": 90, "429": 6},
			Errors: map[string]int64{}, RPCErrors: map[string]int64{"-32005": 3}, BytesIn: 9000, BytesOut: 4000,
			OK: 87, Limited: 9, Connections: Connections{Dialed: 2, DialMean: 1, DialMax: 1.5},
			Calls: CallStats{Sent: 98, OK: 87, Limited: 9}, RPS: 50, DurationS: 2, Latency: Percentiles{P50: 3}},
		// A shard whose target went away: transport errors, faults, still queued work, one slow dial.
		{Scheduled: 50, Sent: 40, Completed: 40, Queued: 10, Status: map[string]int64{"200": 30},
			Errors: map[string]int64{"refused": 10}, BytesIn: 3000, BytesOut: 2000, OK: 30, Failed: 10,
			Connections: Connections{Dialed: 1, DialMean: 4, DialMax: 4},
			Calls:       CallStats{Sent: 40, OK: 30, Failed: 10, Faults: map[string]int64{"missing": 10}},
			Expect:      &ExpectStats{Invalid: 4, Calls: 5, ByRule: map[string]int64{"result present": 5}},
			Cost:        &CostStats{Offered: 400, Accepted: 300, OfferedRate: 20, AcceptedRate: 15}},
		// A probe that dialed nothing (a reused connection) and answered all it sent.
		{Scheduled: 10, Sent: 10, Completed: 10, Status: map[string]int64{"200": 10}, OK: 10, BytesIn: 1000, BytesOut: 500,
			RPCErrors: map[string]int64{"-32005": 1},
			Expect:    &ExpectStats{Invalid: 1, Calls: 2, ByRule: map[string]int64{"result present": 1, "result nonempty": 1}},
			Cost:      &CostStats{Offered: 100, Accepted: 100}},
	}
}

func sumOf(parts ...Summary) Summary {
	var s SummarySum
	for _, p := range parts {
		s.Add(p)
	}
	return s.Total()
}

// TestSummarySumTotal: counts add up; the dial mean is weighted by dials; duration, rate and
// percentiles are not summed; an input is not changed.
func TestSummarySumTotal(t *testing.T) {
	parts := sumParts()
	got := sumOf(parts...)
	want := Summary{Scheduled: 160, Sent: 148, Completed: 146, Inflight: 2, Dropped: 2, Queued: 10,
		Status: map[string]int64{"200": 130, "429": 6}, Errors: map[string]int64{"refused": 10},
		RPCErrors: map[string]int64{"-32005": 4}, BytesIn: 13000, BytesOut: 6500, OK: 127, Limited: 9, Failed: 10,
		LatencyByOutcome: map[string]Percentiles{},
		Connections:      Connections{Dialed: 3, DialMean: 2, DialMax: 4}, // (2×1 ms + 1×4 ms) / 3
		Calls:            CallStats{Sent: 138, OK: 117, Limited: 9, Failed: 10, Faults: map[string]int64{"missing": 10}},
		// Counts add up where any part has them; rates go with the sum's duration.
		Expect: &ExpectStats{Invalid: 5, Calls: 7, ByRule: map[string]int64{"result present": 6, "result nonempty": 1}},
		Cost:   &CostStats{Offered: 500, Accepted: 400}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sum\n%+v\nwant\n%+v", got, want)
	}
	if !reflect.DeepEqual(parts, sumParts()) {
		t.Error("Add changed a summary it added")
	}
}

// TestSummarySumOrder: the sum is the same in any order (commutative) and however the parts are
// grouped (associative: a merge of merges is the merge of all).
func TestSummarySumOrder(t *testing.T) {
	p := sumParts()
	a, b, c := p[0], p[1], p[2]
	want := sumOf(a, b, c)
	tests := []struct {
		name string
		sum  Summary
	}{
		{"b a c", sumOf(b, a, c)},                              // two swapped
		{"c b a", sumOf(c, b, a)},                              // reversed
		{"(a b) c", sumOf(sumOf(a, b), c)},                     // the first two summed first
		{"a (b c)", sumOf(a, sumOf(b, c))},                     // the last two summed first
		{"(a c) b", sumOf(sumOf(a, c), b)},                     // grouped and reordered
		{"((a) (b) (c))", sumOf(sumOf(a), sumOf(b), sumOf(c))}, // each alone first
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.sum, want) {
			t.Errorf("%s:\n%+v\nwant\n%+v", tt.name, tt.sum, want)
		}
	}
}

// TestSummarySumEmpty: a sum of nothing writes empty tallies, as the schema wants them, not null.
func TestSummarySumEmpty(t *testing.T) {
	var s SummarySum
	b, err := json.Marshal(s.Total())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"status":{}`, `"errors":{}`, `"rpc_errors":{}`, `"latency_by_outcome":{}`, `"dial_mean_ms":0`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
}
