package promexport

import (
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/rpcstress/rpcstress/engine"
)

// Collector is a prometheus.Collector of a run's published numbers. Until SetSource is called
// (the run has not started: --start-at, loading) a scrape gets only the run's info.
type Collector struct {
	d       descs
	edges   []float64 // the latency buckets' upper edges, in seconds
	mode    string
	version string

	mu      sync.Mutex
	source  func() *engine.Stats
	scrapes scrapeLog
	now     func() time.Time
}

// Options describe the run being exported.
type Options struct {
	Target  string // the display URL (no secrets)
	Mode    string // open or closed
	Version string // rpcstress's
}

// NewCollector makes a collector for a run.
func NewCollector(o Options) *Collector {
	c := &Collector{d: newDescs(o.Target), mode: o.Mode, version: o.Version, now: time.Now}
	for _, e := range engine.LatencyEdges() {
		c.edges = append(c.edges, e.Seconds())
	}
	return c
}

// SetSource sets where scrapes read the numbers from: the runner's Stats.
func (c *Collector) SetSource(stats func() *engine.Stats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.source = stats
}

// Describe sends every metric's description.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.d.all() {
		ch <- d
	}
}

// Collect sends the metrics of the latest published Stats.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	source := c.source
	c.mu.Unlock()
	e := emitter{ch: ch}
	e.gauge(c.d.info, 1, c.mode, c.version)
	if source == nil {
		return
	}
	st := source()
	if st == nil {
		return
	}
	c.mu.Lock()
	c.scrapes.note(c.now(), st.Done)
	c.mu.Unlock()
	c.collectBooks(e, &st.Total)
	c.collectAnswers(e, &st.Total)
	c.collectLatency(e, st)
	c.collectPlan(e, st)
	c.collectTester(e, st)
	c.collectRules(e, st)
	c.collectNode(e, st)
}

// collectBooks emits the run's books: what was scheduled, sent, dropped, in flight, queued.
func (c *Collector) collectBooks(e emitter, t *engine.Summary) {
	e.counter(c.d.scheduled, t.Scheduled)
	e.counter(c.d.sent, t.Sent)
	e.counter(c.d.dropped, t.Dropped)
	e.gauge(c.d.inflight, float64(t.Inflight))
	e.gauge(c.d.queued, float64(t.Queued))
	e.counter(c.d.bytesIn, t.BytesIn)
	e.counter(c.d.bytesOut, t.BytesOut)
	e.counter(c.d.dials, t.Connections.Dialed)
	e.counter(c.d.redials, t.Connections.Redialed)
}

// collectAnswers emits what came back: outcomes (of the run and per request of the mix),
// statuses, transport errors, JSON-RPC errors and calls. The outcome series are always there,
// 0 before the first answer, so that rate() counts the first answers too.
func (c *Collector) collectAnswers(e emitter, t *engine.Summary) {
	e.counter(c.d.requests, t.OK, "ok")
	e.counter(c.d.requests, t.Limited, "limited")
	e.counter(c.d.requests, t.Failed, "failed")
	for name, r := range t.ByRequest {
		e.counter(c.d.methodRequests, r.OK, name, "ok")
		e.counter(c.d.methodRequests, r.Limited, name, "limited")
		e.counter(c.d.methodRequests, r.Failed, name, "failed")
	}
	e.counters(c.d.responses, t.Status)
	e.counters(c.d.transportErrs, t.Errors)
	e.counters(c.d.rpcErrors, t.RPCErrors)
	e.counter(c.d.callsSent, t.Calls.Sent)
	e.counter(c.d.calls, t.Calls.OK, "ok")
	e.counter(c.d.calls, t.Calls.Limited, "limited")
	e.counter(c.d.calls, t.Calls.Failed, "failed")
	e.counters(c.d.callFaults, t.Calls.Faults)
}

// collectLatency emits a histogram per request of the mix (summed over method, the run's), and
// the last complete second's percentiles as the HDR histogram gives them, finer than buckets.
func (c *Collector) collectLatency(e emitter, st *engine.Stats) {
	for name, lc := range st.LatencyByRequest {
		buckets := make(map[float64]uint64, len(c.edges))
		var cum int64
		for i, edge := range c.edges {
			cum += lc.Buckets[i]
			buckets[edge] = uint64(cum)
		}
		e.histogram(c.d.latency, uint64(lc.Count()), lc.Sum.Seconds(), buckets, name)
	}
	if st.Last.RPS == 0 {
		return // a second without answers has no percentiles (0 would read as 0 ms)
	}
	l := st.Last.Latency
	for _, q := range [...]struct {
		label string
		ms    float64
	}{{"0.5", l.P50}, {"0.9", l.P90}, {"0.95", l.P95}, {"0.99", l.P99}, {"0.999", l.P999}, {"1", l.Max}} {
		e.gauge(c.d.lastLatency, q.ms/1000, q.label)
	}
}

// collectPlan emits where the plan is and the rates: asked, sent and answered.
func (c *Collector) collectPlan(e emitter, st *engine.Stats) {
	p := st.Plan
	e.gauge(c.d.targetRate, float64(p.TargetRate))
	e.gauge(c.d.achieved, st.Last.RPS)
	e.gauge(c.d.sentRate, st.Last.Sent)
	e.gauge(c.d.stage, float64(p.Stage+1))
	e.gauge(c.d.stages, float64(p.StageCount))
	for _, s := range [...]engine.State{engine.StateRunning, engine.StatePaused, engine.StateHeld, engine.StateDraining, engine.StateDone} {
		v := 0.0
		if p.State == s {
			v = 1
		}
		e.gauge(c.d.state, v, string(s))
	}
	e.gauge(c.d.elapsed, st.Elapsed.Seconds())
}

// collectTester emits the tester's own health: a saturated tester's latency is partly its own.
func (c *Collector) collectTester(e emitter, st *engine.Stats) {
	if st.Tester.CPU >= 0 {
		e.gauge(c.d.testerCPU, st.Tester.CPU)
	}
	e.gauge(c.d.testerLag, st.Tester.Lag.Seconds())
	behind := 0.0
	if st.Tester.Behind {
		behind = 1
	}
	e.gauge(c.d.behind, behind)
}

// emitter sends const metrics. A value Prometheus refuses (a label value that is not UTF-8
// is made valid first, so none should be) becomes an invalid metric: the scrape reports it
// instead of the process panicking.
type emitter struct{ ch chan<- prometheus.Metric }

func (e emitter) send(m prometheus.Metric, err error, d *prometheus.Desc) {
	if err != nil {
		m = prometheus.NewInvalidMetric(d, err)
	}
	e.ch <- m
}

func (e emitter) counter(d *prometheus.Desc, v int64, labels ...string) {
	m, err := prometheus.NewConstMetric(d, prometheus.CounterValue, float64(v), validLabels(labels)...)
	e.send(m, err, d)
}

func (e emitter) gauge(d *prometheus.Desc, v float64, labels ...string) {
	m, err := prometheus.NewConstMetric(d, prometheus.GaugeValue, v, validLabels(labels)...)
	e.send(m, err, d)
}

// counters emits one counter per key of counts, the key as the one label.
func (e emitter) counters(d *prometheus.Desc, counts map[string]int64) {
	for k, n := range counts {
		e.counter(d, n, k)
	}
}

func (e emitter) histogram(d *prometheus.Desc, count uint64, sum float64, buckets map[float64]uint64, labels ...string) {
	m, err := prometheus.NewConstHistogram(d, count, sum, buckets, validLabels(labels)...)
	e.send(m, err, d)
}

// validLabels makes label values valid UTF-8, as Prometheus requires: request names and error
// classes come from profiles, target files and answers.
func validLabels(labels []string) []string {
	for i, l := range labels {
		labels[i] = validUTF8(l)
	}
	return labels
}

func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
