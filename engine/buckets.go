package engine

import "time"

// bucketEdgesUs are the upper edges of the latency histogram view, in microseconds: a 1-2-5
// series from 0.1 ms to 10 s, the steps people read latency in (seed 004's text histograms).
// Anything slower falls in one last bucket.
var bucketEdgesUs = [...]int64{100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000,
	100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000}

// LatencyBucketCount is how many buckets a LatencyCounts holds: one below each edge of
// LatencyEdges and one for the slower answers.
const LatencyBucketCount = len(bucketEdgesUs) + 1

// LatencyEdges are the upper edges of the latency buckets, fastest first (0.1 ms to 10 s in
// 1-2-5 steps): the steps RPC latencies are read in, from a cached answer on loopback to a
// timeout. Each call returns a new slice.
func LatencyEdges() []time.Duration {
	out := make([]time.Duration, len(bucketEdgesUs))
	for i, us := range bucketEdgesUs {
		out[i] = time.Duration(us) * time.Microsecond
	}
	return out
}

// LatencyCounts is latencies counted into the buckets of LatencyEdges, for outputs that keep
// histograms of their own (Prometheus): Buckets[i] counts the latencies below LatencyEdges()[i]
// and not below the edge before it; the last bucket the slower ones. Sum is what the latencies
// add up to (each at the microsecond its histogram recorded).
type LatencyCounts struct {
	Buckets [LatencyBucketCount]int64
	Sum     time.Duration
}

// Count is how many latencies were counted.
func (c LatencyCounts) Count() int64 {
	var n int64
	for _, b := range c.Buckets {
		n += b
	}
	return n
}

// latencyBuckets counts latencies into the view's buckets as they are recorded: a few compares
// per sample, so drawing the view never has to walk an HDR histogram.
type latencyBuckets [len(bucketEdgesUs) + 1]int64

func (b *latencyBuckets) add(ns int64) {
	us := ns / 1000
	i := 0
	for i < len(bucketEdgesUs) && us >= bucketEdgesUs[i] {
		i++
	}
	b[i]++
}

// view is the buckets as the Stats carries them, from the first to the last non-empty one.
func (b *latencyBuckets) view() []Bucket {
	first, last := -1, -1
	for i, n := range b {
		if n > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil
	}
	out := make([]Bucket, 0, last-first+1)
	for i := first; i <= last; i++ {
		var from, to float64
		if i > 0 {
			from = float64(bucketEdgesUs[i-1]) / 1000
		}
		if i < len(bucketEdgesUs) {
			to = float64(bucketEdgesUs[i]) / 1000
		} else {
			to = -1 // open-ended: slower than the last edge
		}
		out = append(out, Bucket{From: from, To: to, Count: b[i]})
	}
	return out
}
