package engine

import (
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histograms record microseconds from 1 µs to one hour at three significant figures: every
// latency a person cares about, to 0.1 % precision, in about 190 KiB per histogram.
const (
	histLowest  = 1
	histHighest = 3_600_000_000
	histSigFigs = 3
)

// summaryQuery asks for every quantile a Percentiles value holds, min and max included: one
// pass over the counts gives them all (hdrhistogram-go's Min, Max and Mean each walk the whole
// histogram, which at ten views a second was most of the aggregator's time). Read-only.
var summaryQuery = newQuantileQuery()

func newHist() *hdr.Histogram { return hdr.New(histLowest, histHighest, histSigFigs) }

// hdrCounts is what a latencyHist needs of an HDR histogram. The run's and the stages' are
// dense (hdr.Histogram: the fastest to record into, about 190 KiB each); per-request ones are
// packed (hdr.PackedHistogram: the same buckets, percentiles and encoding, in storage that grows
// with the buckets used, a few KiB), because a mix may hold a thousand requests, each kept per
// stage.
type hdrCounts interface {
	RecordValue(v int64) error
	ValueAtPercentilesSlice(percentiles []float64) []int64
	TotalCount() int64
	Reset()
}

// latencyHist is an HDR histogram that also keeps the sum of what it recorded, so the mean
// costs nothing to derive.
type latencyHist struct {
	counts hdrCounts
	sumUs  int64
}

// newLatencyHist is a dense histogram at sigFigs significant figures.
func newLatencyHist(sigFigs int) *latencyHist {
	return &latencyHist{counts: hdr.New(histLowest, histHighest, sigFigs)}
}

// newPackedLatencyHist is a packed histogram at sigFigs significant figures.
func newPackedLatencyHist(sigFigs int) *latencyHist {
	return &latencyHist{counts: hdr.NewPacked(histLowest, histHighest, sigFigs)}
}

// record records a duration in nanoseconds.
func (h *latencyHist) record(ns int64) { h.sumUs += recordNanos(h.counts, ns) }

// reset empties the histogram for reuse.
func (h *latencyHist) reset() {
	h.counts.Reset()
	h.sumUs = 0
}

// TotalCount is the number of values recorded.
func (h *latencyHist) TotalCount() int64 { return h.counts.TotalCount() }

// encode is the histogram as a snapshot holds it, written by e (see histEncoder). A histogram
// not made yet (an outcome a stage never had: see spanAcc.byOutcome) is encoded empty.
func (h *latencyHist) encode(e *histEncoder) (string, error) {
	if h == nil {
		return e.encodeEmpty(histGeometry{histLowest, histHighest, histSigFigs})
	}
	return e.encode(h.counts)
}

// percentiles derives the full percentile set of h.
func (h *latencyHist) percentiles() Percentiles {
	if h == nil || h.TotalCount() == 0 {
		return Percentiles{}
	}
	return percentilesWithMean(h.counts, float64(h.sumUs)/float64(h.TotalCount())/1000)
}

// recordNanos records a duration in nanoseconds, clamped into the histogram's range: an answer
// slower than an hour is still one answer, and counting it at the ceiling keeps Σ exact. It
// returns the value recorded, in microseconds.
func recordNanos(h hdrCounts, ns int64) int64 {
	us := ns / 1000
	if us < histLowest {
		us = histLowest
	}
	if us > histHighest {
		us = histHighest
	}
	_ = h.RecordValue(us) // cannot fail: the value is in range
	return us
}

// percentilesOf derives the full percentile set of a histogram without a kept sum (a decoded
// one), in milliseconds. An empty histogram gives zeros.
func percentilesOf(h *hdr.Histogram) Percentiles {
	if h == nil || h.TotalCount() == 0 {
		return Percentiles{}
	}
	return percentilesWithMean(h, h.Mean()/1000)
}

func percentilesWithMean(h hdrCounts, meanMs float64) Percentiles {
	v := h.ValueAtPercentilesSlice(summaryQuery.quantiles)
	p := Percentiles{Mean: roundMs(meanMs)}
	fields := p.figures()
	for i, f := range summaryQuery.figures {
		*fields[f] = usToMs(v[i])
	}
	return p
}

// rowLatencyOf is the short percentile set of one timeline second.
func rowLatencyOf(h hdrCounts) RowLatency {
	if h.TotalCount() == 0 {
		return RowLatency{}
	}
	var ps = [...]float64{50, 90, 95, 99, 99.9, 100}
	v := h.ValueAtPercentilesSlice(ps[:])
	return RowLatency{P50: usToMs(v[0]), P90: usToMs(v[1]), P95: usToMs(v[2]), P99: usToMs(v[3]), P999: usToMs(v[4]), Max: usToMs(v[5])}
}

func usToMs(us int64) float64 { return roundMs(float64(us) / 1000) }

// roundMs keeps three decimals (1 µs): more digits would only be noise in the JSON.
func roundMs(ms float64) float64 { return math.Round(ms*1000) / 1000 }

// encodeHist is the HDR V2 compressed, base64 encoding used in snapshots, for a histogram
// encoded now and then (a merge's, a subscription's); the aggregator's, encoded at every save,
// go through its own histEncoder.
func encodeHist(h hdrCounts) (string, error) {
	var e histEncoder
	return e.encode(h)
}

// DecodeHistogram reads a histogram written into a snapshot (values in microseconds).
func DecodeHistogram(s string) (*hdr.Histogram, error) { return hdr.Decode([]byte(s)) }
