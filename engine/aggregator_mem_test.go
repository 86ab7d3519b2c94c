package engine

import (
	"runtime"
	"strconv"
	"testing"
	"time"
	"unsafe"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// heapAlloc is the live heap after a collection.
func heapAlloc() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// manyRequests is a config whose mix holds n requests named r0, r1 ….
func manyRequests(n int) *Config {
	cfg := testConfig(Stage{Rate: 100, Duration: time.Hour})
	cfg.Requests = make([]Request, n)
	for i := range cfg.Requests {
		cfg.Requests[i] = Request{Name: "r" + strconv.Itoa(i), Body: []byte("{}"), Weight: 1, Items: 1}
	}
	return cfg
}

// ingestPerRequest gives the aggregator k answers of every request of its mix, with latencies
// spread from 1 ms to about a second, in batches as workers send them.
func ingestPerRequest(a *Aggregator, k int) {
	b := a.getBatch()
	for i := range a.cfg.Requests {
		for j := range k {
			lat := int64(time.Millisecond) << (j % 10)
			b.Samples = append(b.Samples, Sample{Request: uint16(i), Sent: 1000, Done: lat, Status: 200})
			if len(b.Samples) == batchSize {
				a.ingest(b)
				b = a.getBatch()
			}
		}
	}
	a.ingest(b)
}

// TestPerRequestMemory: what the aggregator keeps per request of the mix follows what that
// request's answers fill, not a fixed 60 KiB of dense histograms per request and stage (a
// generated profile of 10,000 requests held 300 MB of them after 3 s). The bound is wide: a
// few KiB are expected; dense histograms take over 100 KiB.
func TestPerRequestMemory(t *testing.T) {
	const n, perRequestMax = 500, 16 << 10
	cfg := manyRequests(n)
	counters := NewCounters(1)
	counters.InitRequests(n)
	start := time.Now()
	a := NewAggregator(cfg, counters, NewEventLog(start), fixedPlan, start, time.Hour)
	before := heapAlloc()
	ingestPerRequest(a, 20)
	after := heapAlloc()
	if got := a.total.completed; got != n*20 {
		t.Fatalf("%d answers counted, want %d", got, n*20)
	}
	if per := int64(after-before) / n; per > perRequestMax {
		t.Errorf("%d bytes kept per request of the mix, want at most %d", per, perRequestMax)
	}
	runtime.KeepAlive(a)
}

// TestFewRequestsDenseHistograms: a mix of a few requests records each answer into dense
// per-request histograms (the fastest to record into: one answer at a time, on the hot path),
// a mix of many into packed ones (TestPerRequestMemory bounds what those take).
func TestFewRequestsDenseHistograms(t *testing.T) {
	for _, c := range []struct {
		requests int
		dense    bool
	}{{1, true}, {3, true}, {32, true}, {33, false}, {500, false}} {
		cfg := manyRequests(c.requests)
		counters := NewCounters(1)
		counters.InitRequests(c.requests)
		start := time.Now()
		a := NewAggregator(cfg, counters, NewEventLog(start), fixedPlan, start, time.Hour)
		ingestPerRequest(a, 3)
		for i, acc := range a.reqTotal {
			_, dense := acc.latency.counts.(*hdr.Histogram)
			if _, svc := acc.service.counts.(*hdr.Histogram); dense != c.dense || svc != c.dense {
				t.Errorf("%d requests: request %d's histograms dense %v/%v, want %v", c.requests, i, dense, svc, c.dense)
				break
			}
		}
	}
}

// TestPackedRequestHistogramsEncodeAsDense: per-request histograms are packed now; a snapshot
// holds them exactly as the dense ones were written (schema v1), and they give the same
// percentiles.
func TestPackedRequestHistogramsEncodeAsDense(t *testing.T) {
	packed, dense := newPackedLatencyHist(2), newLatencyHist(2)
	for i := range 5000 {
		ns := int64(i*i%7919+1) * 997 * 1000
		packed.record(ns)
		dense.record(ns)
	}
	var e histEncoder
	p, err := packed.encode(&e)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dense.encode(&e)
	if err != nil {
		t.Fatal(err)
	}
	if p != d {
		t.Errorf("packed encoding differs from the dense one:\n%s\n%s", p, d)
	}
	if packed.percentiles() != dense.percentiles() {
		t.Errorf("percentiles %+v, dense %+v", packed.percentiles(), dense.percentiles())
	}
}

// TestRequestRowsBounded: the first MaxRequestRows requests of a mix get rows of their own, the
// rest share one row, and every answer and send is counted in exactly one row; the snapshot
// holds histograms for those rows only.
func TestRequestRowsBounded(t *testing.T) {
	const extra = 300
	n := MaxRequestRows + extra
	cfg := manyRequests(n)
	cfg.Requests[0].Name = OtherRequests // a request may have the row's name: the row gives way
	counters := NewCounters(1)
	counters.InitRequests(n)
	for i := range n {
		counters.Stage(0).Scheduled.Add(2)
		counters.Stage(0).Sent.Add(2)
		counters.RequestSent(0, i)
		counters.RequestSent(0, i)
	}
	start := time.Now()
	a := NewAggregator(cfg, counters, NewEventLog(start), fixedPlan, start, time.Hour)
	ingestPerRequest(a, 2)

	by := a.byRequest(-1)
	if len(by) != MaxRequestRows+1 {
		t.Fatalf("%d rows, want %d: one per request up to %d, then one shared", len(by), MaxRequestRows+1, MaxRequestRows)
	}
	other, ok := by[OtherRequests+"#2"]
	if !ok || other.Completed != 2*extra || other.Sent != 2*extra || other.Inflight != 0 {
		t.Errorf("the shared row %+v (present %v), want %d answers and sends", other, ok, 2*extra)
	}
	if r := by[cfg.Requests[MaxRequestRows-1].Name]; r.Completed != 2 || r.Sent != 2 {
		t.Errorf("the last request with a row of its own: %d answers, %d sent, want 2 and 2", r.Completed, r.Sent)
	}
	var completed int64
	for _, s := range by {
		completed += s.Completed
	}
	if completed != a.total.completed {
		t.Errorf("rows add up to %d answers, the run has %d", completed, a.total.completed)
	}
	if st := a.byRequest(0); len(st) != len(by) {
		t.Errorf("stage 1 has %d rows, the run %d", len(st), len(by))
	}
	var h Histograms
	if err := a.encodeHistograms(&h); err != nil {
		t.Fatal(err)
	}
	if len(h.ByRequest) != len(by) {
		t.Errorf("%d per-request histograms in the snapshot, want %d", len(h.ByRequest), len(by))
	}
}

// TestSaveEncodesOnlyWhatChanged: a save encodes only the per-request histograms that got
// answers since the last one; the others are kept from then (an encoding walks the whole
// counts array and compresses it, and a thousand requests over several stages spent seconds at
// every save). Counted in bytes allocated: a save of many unchanged requests costs about what
// a save of one costs, plus the snapshot's own map entries.
func TestSaveEncodesOnlyWhatChanged(t *testing.T) {
	save := func(n int) (first, again float64) {
		cfg := manyRequests(n)
		counters := NewCounters(1)
		counters.InitRequests(n)
		start := time.Now()
		a := NewAggregator(cfg, counters, NewEventLog(start), fixedPlan, start, time.Hour)
		ingestPerRequest(a, 3)
		encode := func() {
			var h Histograms
			if err := a.encodeHistograms(&h); err != nil || len(h.ByRequest) != n {
				t.Fatalf("%d per-request histograms (error %v), want %d", len(h.ByRequest), err, n)
			}
		}
		return float64(allocated(encode)), float64(allocated(encode))
	}
	const n = 200
	oneFirst, oneAgain := save(1)
	manyFirst, manyAgain := save(n)
	if perRequest := (manyFirst - oneFirst) / (n - 1); perRequest < 8<<10 {
		t.Fatalf("the first save took %.0f bytes per request: is encoding that cheap now? (then drop this test)", perRequest)
	}
	if perRequest := (manyAgain - oneAgain) / (n - 1); perRequest > 1<<10 {
		t.Errorf("a save with nothing new took %.0f bytes per request, want a few hundred: the histograms were encoded again", perRequest)
	}
}

// TestBatchMemoryFollowsSamples: a batch takes room for the samples its worker sends between
// flushes, not for all a batch may hold. At 5,000/s over 64 connections a worker flushes every
// batchMaxAge with 4 samples; a stall of the aggregator (a save, a busy machine) puts hundreds
// of batches in circulation, and with room for batchSize each they held half the heap.
func TestBatchMemoryFollowsSamples(t *testing.T) {
	const n, samples = 2000, 4
	cfg := manyRequests(1)
	counters := NewCounters(1)
	counters.InitRequests(1)
	start := time.Now()
	a := NewAggregator(cfg, counters, NewEventLog(start), fixedPlan, start, time.Hour)
	held := make([]*Batch, n)
	before := heapAlloc()
	for i := range held {
		b := a.getBatch()
		for j := range samples {
			b.Samples = append(b.Samples, Sample{Sent: int64(j), Done: int64(j) + 1000, Status: 200})
		}
		held[i] = b
	}
	per := (int64(heapAlloc()) - int64(before)) / n
	// Room for a few times what the batch holds, and the batch itself.
	if most := int64(8*samples)*int64(unsafe.Sizeof(Sample{})) + int64(unsafe.Sizeof(Batch{})); per > most || per <= 0 {
		t.Errorf("a batch of %d samples took %d bytes, want at most %d", samples, per, most)
	}
	runtime.KeepAlive(held)
}

// TestSpanHoldsOutcomesSeen: a span's latency per outcome takes memory only for the outcomes
// it has seen: answered ok throughout, it holds no histograms for limited and failed (190 KiB
// each, four a target with one stage). The snapshot still holds every outcome the run saw, for
// every stage, an empty one where the stage had none.
func TestSpanHoldsOutcomesSeen(t *testing.T) {
	fill := func(a *spanAcc, outcomes ...Outcome) {
		for i := range 1000 {
			a.add(&Sample{Done: int64(i+1) * 1000, Status: 200, Outcome: outcomes[i%len(outcomes)]})
		}
	}
	held := func(outcomes ...Outcome) int64 {
		before := heapAlloc()
		a := newSpanAcc()
		fill(a, outcomes...)
		n := int64(heapAlloc()) - int64(before)
		runtime.KeepAlive(a)
		return n
	}
	before := heapAlloc()
	h := newLatencyHist(histSigFigs)
	one := int64(heapAlloc()) - int64(before) // what one per-outcome histogram takes
	runtime.KeepAlive(h)
	okOnly, all := held(OutcomeOK), held(OutcomeOK, OutcomeLimited, OutcomeFailed)
	t.Logf("ok only %d KiB, all %d KiB, one %d KiB", okOnly>>10, all>>10, one>>10)
	if okOnly > all-one*3/2 {
		t.Errorf("a span of ok answers holds %d KiB, one of all three outcomes %d KiB: want two histograms (%d KiB each) less", okOnly>>10, all>>10, one>>10)
	}

	// Failed answers in the second stage only: the first stage's failed histogram is empty.
	cfg := testConfig(Stage{Rate: 10, Duration: time.Second}, Stage{Rate: 10, Duration: time.Second})
	counters := NewCounters(2)
	counters.InitRequests(1)
	start := time.Now()
	a := NewAggregator(cfg, counters, NewEventLog(start), fixedPlan, start, time.Hour)
	b := a.getBatch()
	b.Samples = append(b.Samples,
		Sample{Stage: 0, Done: 1000, Status: 200, Outcome: OutcomeOK},
		Sample{Stage: 1, Done: 2000, Status: 500, Outcome: OutcomeFailed},
		Sample{Stage: 1, Done: 3000, Status: 500, Outcome: OutcomeFailed})
	a.ingest(b)
	var hs Histograms
	if err := a.encodeHistograms(&hs); err != nil {
		t.Fatal(err)
	}
	if _, ok := hs.ByOutcome["limited"]; ok {
		t.Error("the snapshot holds latencies of limited answers, and there were none")
	}
	failed := hs.ByOutcome["failed"]
	for i, want := range []int64{0, 2} {
		if i >= len(failed.Stages) {
			t.Fatalf("failed latencies for %d stages, want 2", len(failed.Stages))
		}
		h, err := DecodeHistogram(failed.Stages[i])
		if err != nil || h.TotalCount() != want {
			t.Errorf("stage %d: failed latencies %v (error %v), want %d answers", i+1, h, err, want)
		}
	}
}

// TestSecondHoldsWhatItCounted: a timeline second's histogram takes what its answers fill, not
// a dense histogram's whole range (a few seconds are open or spare per target at any time),
// and its row reads the same percentiles a dense histogram gives.
func TestSecondHoldsWhatItCounted(t *testing.T) {
	const n = 20 // seconds, so that the heap's noise is small beside them
	samples := make([]Sample, 5000)
	dense := newLatencyHist(histSigFigs)
	for i := range samples {
		samples[i] = Sample{Done: int64(2*time.Millisecond) + int64(i*i%7919)*int64(time.Microsecond), Status: 200}
		dense.record(samples[i].Latency())
	}
	held := func(build func() any) int64 {
		keep := make([]any, n)
		before := heapAlloc()
		for i := range keep {
			keep[i] = build()
		}
		per := (int64(heapAlloc()) - int64(before)) / n
		runtime.KeepAlive(keep)
		return per
	}
	second := held(func() any {
		s := newSecond()
		s.reset(0, 0, 5000)
		for i := range samples {
			s.add(&samples[i])
		}
		return s
	})
	denseSize := held(func() any { return newLatencyHist(histSigFigs) })
	t.Logf("a second holds %d KiB, a dense histogram %d KiB", second>>10, denseSize>>10)
	if second*3 > denseSize {
		t.Errorf("a second of %d answers holds %d KiB, a dense histogram %d KiB: want a third at most", len(samples), second>>10, denseSize>>10)
	}
	s := newSecond()
	s.reset(0, 0, 5000)
	for i := range samples {
		s.add(&samples[i])
	}
	if got, want := s.row(0, 5000, 0, 0, time.Second).Latency, rowLatencyOf(dense.counts); got != want {
		t.Errorf("the row's latency %+v, a dense histogram's %+v", got, want)
	}
}
