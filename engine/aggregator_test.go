package engine

import (
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func fixedPlan() PlanState { return PlanState{State: StateRunning, StageCount: 1, TargetRate: 100} }

// startAggregator runs an aggregator over cfg's stages and requests as if the run began ago
// (fixedPlan, one view an hour so only the test's Finish publishes); the test counts its sends
// on the returned counters and feeds its answers through batches.
func startAggregator(cfg *Config, ago time.Duration) (*Aggregator, *Counters) {
	c := NewCounters(len(cfg.Plan.Stages))
	c.InitRequests(len(cfg.Requests))
	start := time.Now().Add(-ago)
	a := NewAggregator(cfg, c, NewEventLog(start), fixedPlan, start, time.Hour)
	go a.Run()
	return a, c
}

// TestAggregatorTimeline: samples land in the second they completed in, seconds without answers
// still get a row, and the rows add up to the totals.
func TestAggregatorTimeline(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: 5 * time.Second})
	c := NewCounters(1)
	start := time.Now().Add(-5 * time.Second) // as if the run began 5 s ago
	a := NewAggregator(cfg, c, NewEventLog(start), fixedPlan, start, time.Hour)
	go a.Run()
	b := a.getBatch()
	for _, done := range []time.Duration{100 * time.Millisecond, 900 * time.Millisecond, 2500 * time.Millisecond} {
		b.Samples = append(b.Samples, Sample{Intended: int64(done - time.Millisecond), Sent: int64(done - time.Millisecond), Done: int64(done), Status: 200})
	}
	b.Samples = append(b.Samples, Sample{Done: int64(2600 * time.Millisecond), Err: ErrTimeout, Outcome: OutcomeFailed})
	b.RPCErrors = append(b.RPCErrors, RPCError{Sample: 1, Code: -32602, Message: "bad params"})
	c.Stage(0).Scheduled.Add(4)
	c.Stage(0).Sent.Add(4)
	a.submit(b)
	a.Finish("completed")
	st := a.Stats()
	if !st.Done || st.Total.Completed != 4 || st.Total.Errors["timeout"] != 1 || st.Total.RPCErrors["-32602"] != 1 {
		t.Fatalf("totals: %+v", st.Total)
	}
	if err := st.Total.CheckInvariant(); err != nil {
		t.Error(err)
	}
	want := []int64{2, 0, 2} // seconds 0, 1 (empty), 2; then 3 and 4 empty
	if len(st.Timeline) < 5 {
		t.Fatalf("timeline has %d rows, want at least 5", len(st.Timeline))
	}
	for i, w := range want {
		r := st.Timeline[i]
		if r.T != i || r.OK+r.Failed != w {
			t.Errorf("row %d: t=%d completed %d, want t=%d completed %d", i, r.T, r.OK+r.Failed, i, w)
		}
	}
	if st.Timeline[0].RPCErrors["-32602"] != 1 || st.RPCMessage["-32602"] != "bad params" {
		t.Errorf("rpc error not filed: row %+v messages %v", st.Timeline[0].RPCErrors, st.RPCMessage)
	}
}

// BenchmarkAggregatorIngest is the aggregator's whole per-answer work as a closed-loop run
// meets it: batches of ok JSON-RPC answers of 0.2-1.5 ms, one stage, one request, through
// ingest (the run's accumulator, the request's and the second's). ns/op is per answer;
// samples/s is what one aggregator core takes.
func BenchmarkAggregatorIngest(b *testing.B) {
	cfg := testConfig(Stage{Rate: 100, Duration: time.Hour})
	start := time.Now()
	a := NewAggregator(cfg, NewCounters(1), NewEventLog(start), fixedPlan, start, time.Hour)
	proto := make([]Sample, batchSize)
	for i := range proto {
		at := int64(i) * int64(time.Second) / int64(batchSize)
		lat := int64(200_000 + (i*7919)%1_300_000)
		proto[i] = Sample{Intended: at, Sent: at + 2_000, Done: at + lat, Status: 200, Outcome: OutcomeOK,
			Calls: 1, CallsOK: 1, BytesIn: 180, BytesOut: 150}
	}
	batch := &Batch{Samples: make([]Sample, 0, batchSize)}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n += batchSize {
		batch.Samples = append(batch.Samples[:0], proto...)
		a.ingest(batch)
		batch = a.getBatch()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// TestLatencyBuckets: latencies land in their 1-2-5 bucket and the view trims empty ends.
func TestLatencyBuckets(t *testing.T) {
	var b latencyBuckets
	for _, ms := range []float64{0.05, 0.15, 0.15, 3, 20_000} {
		b.add(int64(ms * 1e6))
	}
	v := b.view()
	want := []Bucket{{0, 0.1, 1}, {0.1, 0.2, 2}, {0.2, 0.5, 0}, {0.5, 1, 0}, {1, 2, 0}, {2, 5, 1}}
	if len(v) != len(bucketEdgesUs)+1 {
		t.Fatalf("view has %d buckets, want all %d (the first and last are not empty)", len(v), len(bucketEdgesUs)+1)
	}
	for i, w := range want {
		if v[i] != w {
			t.Errorf("bucket %d = %+v, want %+v", i, v[i], w)
		}
	}
	if last := v[len(v)-1]; last.To != -1 || last.Count != 1 {
		t.Errorf("last bucket %+v, want the open-ended one with 1", last)
	}
}

// TestPercentilesOnePass: the one-pass percentiles agree with the histogram's own Min, Max and
// Mean, and the kept sum gives the exact mean.
func TestPercentilesOnePass(t *testing.T) {
	h := newLatencyHist(histSigFigs)
	for _, ms := range []int64{3, 1, 7, 250, 12, 12, 40} {
		h.record(ms * 1e6)
	}
	p := h.percentiles()
	d := h.counts.(*hdr.Histogram)
	if p.Min != usToMs(d.Min()) || p.Max != usToMs(d.Max()) {
		t.Errorf("min %v max %v, histogram says %v and %v", p.Min, p.Max, usToMs(d.Min()), usToMs(d.Max()))
	}
	if p.Mean != roundMs(325.0/7) {
		t.Errorf("mean %v, want %v", p.Mean, roundMs(325.0/7))
	}
	if q := percentilesOf(d); q.Min != p.Min || q.Max != p.Max || q.P50 != p.P50 {
		t.Errorf("decoded-style percentiles %+v differ from %+v", q, p)
	}
}

// TestRowLatencyFullSet: a timeline second carries the same percentiles as a summary (the
// dashboard's last-second row shows p95 and p99.9 too), and they agree with the summary's.
func TestRowLatencyFullSet(t *testing.T) {
	h := newLatencyHist(histSigFigs)
	for ms := int64(1); ms <= 1000; ms++ {
		h.record(ms * 1e6)
	}
	row, sum := rowLatencyOf(h.counts.(*hdr.Histogram)), h.percentiles()
	want := RowLatency{P50: sum.P50, P90: sum.P90, P95: sum.P95, P99: sum.P99, P999: sum.P999, Max: sum.Max}
	if row != want {
		t.Fatalf("row latency %+v, want the summary's %+v", row, want)
	}
	if row.P95 < 940 || row.P95 > 960 || row.P999 < 990 || row.P999 > 1001 {
		t.Errorf("p95 %v p99.9 %v for 1..1000 ms, want about 950 and 999", row.P95, row.P999)
	}
}

// TestAggregatorTimelineCounts: a row's drops and sends are those counted during its second,
// not up to when the row closes (rowGrace later): those of the next second's first half stay
// there. Sends are a rate, so the run's last partial second is scaled like its rps and the
// dashboard's sent/s never reads below the ok/s of the same second; drops are a count.
func TestAggregatorTimelineCounts(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name  string
		count func(c *Counters, n int64)
		n     [4]int64      // counted before 1.1 s, to 1.6 s, to 2.1 s, to the end
		end   time.Duration // the run ends
		row   func(Row) float64
		want  []float64
		sum   float64 // what the rows add up to, as the counters say; 0: not a count
	}{
		// Second 0 drops 100; second 1 drops 50 before row 0 closes at 1.5 s and 30 after;
		// second 2 drops 7 before the end: 187 in all, as the counters say.
		{"dropped", func(c *Counters, n int64) { c.Stage(0).Scheduled.Add(n); c.Stage(0).Dropped.Add(n) },
			[4]int64{100, 50, 30, 7}, 2300 * ms, func(r Row) float64 { return float64(r.Dropped) }, []float64{100, 80, 7}, 187},
		// The same for sends, the run ending 0.9 s into second 2: 45 in it is 50/s.
		{"sent", func(c *Counters, n int64) { c.Stage(0).Scheduled.Add(n); c.Stage(0).Sent.Add(n) },
			[4]int64{100, 50, 30, 45}, 2900 * ms, func(r Row) float64 { return r.Sent }, []float64{100, 80, 50}, 0},
		// The cost offered follows the sends, at 3 units each (the request's Cost).
		{"cost offered", func(c *Counters, n int64) {
			c.Stage(0).Scheduled.Add(n)
			c.Stage(0).Sent.Add(n)
			for range n {
				c.RequestSent(0, 0)
			}
		}, [4]int64{100, 50, 30, 7}, 2300 * ms, func(r Row) float64 { return r.CostOffered }, []float64{300, 240, 21}, 561},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(Stage{Rate: 100, Duration: 5 * time.Second})
			cfg.Requests[0].Cost = 3
			c := NewCounters(1)
			c.InitRequests(1)
			start := time.Now()
			a := NewAggregator(cfg, c, NewEventLog(start), fixedPlan, start, time.Hour)
			// The aggregator's ticks, called directly (no Run goroutine).
			for i, at := range []time.Duration{100 * ms, 1100 * ms, 1600 * ms, 2100 * ms} {
				a.advance(at, false) // opens second 1 at 1.1 s, closes row 0 at 1.6 s, opens second 2
				tt.count(c, tt.n[i])
			}
			a.advance(tt.end, true)
			if len(a.timeline) != len(tt.want) {
				t.Fatalf("%d rows, want %d", len(a.timeline), len(tt.want))
			}
			var sum float64
			for i, w := range tt.want {
				got := tt.row(a.timeline[i])
				if got != w {
					t.Errorf("row %d: %s %v, want %v", i, tt.name, got, w)
				}
				sum += got
			}
			if tt.sum != 0 && sum != tt.sum {
				t.Errorf("rows add up to %v %s, the counters say %v", sum, tt.name, tt.sum)
			}
		})
	}
}

// TestAggregatorLastIsAWholeSecond: the published last second is a complete one; the run's final
// sliver (0.3 s of the drain's stragglers) is in the timeline but is not shown as the last
// second's rate ("sent 0.0/s  ok 2.0/s" on the final frame of a 300/s run).
func TestAggregatorLastIsAWholeSecond(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: 2 * time.Second})
	c := NewCounters(1)
	start := time.Now()
	a := NewAggregator(cfg, c, NewEventLog(start), fixedPlan, start, time.Hour)
	b := a.getBatch()
	for i := range 250 {
		done := int64(i) * int64(10*time.Millisecond) // 100 a second through 2.5 s
		b.Samples = append(b.Samples, Sample{Intended: done, Sent: done, Done: done + 1, Status: 200})
	}
	a.ingest(b)
	a.advance(2300*time.Millisecond, true)
	st := a.view(true)
	if n := len(st.Timeline); n != 3 || st.Last.T != 1 || st.Last.RPS != 100 {
		t.Errorf("timeline of %d rows, last shown t=%d rps %v; want 3 rows and the last shown t=1 at 100/s", n, st.Last.T, st.Last.RPS)
	}
}

// TestAggregatorTargetWhilePaused: a row's target rate is what the plan asked of that second:
// the rate over the part of it that was not paused, 0 when paused throughout (it was the
// stage's rate, which the CSV and the charts then showed beside nothing sent).
func TestAggregatorTargetWhilePaused(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: 10 * time.Second})
	c := NewCounters(1)
	start := time.Now()
	a := NewAggregator(cfg, c, NewEventLog(start), fixedPlan, start, time.Hour)
	c.pauses.pause(1500 * time.Millisecond) // paused from 1.5 s …
	c.pauses.resume(3 * time.Second)        // … to 3 s
	c.pauses.pause(4750 * time.Millisecond) // and again from 4.75 s, still paused at the end
	a.advance(5500*time.Millisecond, true)
	want := []float64{100, 50, 0, 100, 75, 0}
	if len(a.timeline) != len(want) {
		t.Fatalf("%d rows, want %d", len(a.timeline), len(want))
	}
	for i, w := range want {
		if got := a.timeline[i].TargetRate; got != w {
			t.Errorf("row %d: target %v/s, want %v/s", i, got, w)
		}
	}
}
