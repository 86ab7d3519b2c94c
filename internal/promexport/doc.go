// Package promexport serves a run's live numbers to Prometheus (--metrics-listen).
//
// A scrape reads the engine's latest published Stats, the immutable view the dashboard draws
// from, and turns it into const metrics: it never touches the aggregator, the workers or the
// hot path, and its cost follows the number of series (statuses, error codes, requests of the
// mix), not the request rate. Counters are the run's cumulative counts, so they only grow and
// equal the snapshot's totals at the end; the latency histograms are the engine's fixed
// buckets (engine.LatencyEdges) per request of the mix. Every series carries the run's name
// and its shard (run, shard), so one dashboard sums the machines of a distributed run.
//
// The node's own numbers (issue 18's watched process and scraped node metrics) come here the
// same way once the engine publishes them in its Stats: one more emitter in collect.
package promexport
