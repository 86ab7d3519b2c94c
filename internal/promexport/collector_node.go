package promexport

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/rpcstress/rpcstress/engine"
)

// nodeDescs are the series of the node's resources, for a run that watches them (--watch-pid,
// --node-metrics): each process's latest reading (rpcstress's own as process "rpcstress"),
// the node's series as last scraped, and how the scrapes went. Emitted only for a watched run,
// so a dashboard tells "not watched" from "idle".
type nodeDescs struct {
	cpu, rss, threads, files   *prometheus.Desc
	readRate, writeRate        *prometheus.Desc
	series, scrapes, scrapeErr *prometheus.Desc
}

func newNodeDescs(d func(name, help string, labels ...string) *prometheus.Desc) nodeDescs {
	return nodeDescs{
		cpu:       d("node_cpu_percent", "A watched process's CPU in the last second read, as top shows it (100 is one core busy).", "process"),
		rss:       d("node_resident_bytes", "A watched process's resident memory.", "process"),
		threads:   d("node_threads", "A watched process's threads.", "process"),
		files:     d("node_open_files", "A watched process's open files (sockets included), when this user may read them.", "process"),
		readRate:  d("node_disk_read_bytes_per_second", "A watched process's storage reads in the last second read.", "process"),
		writeRate: d("node_disk_write_bytes_per_second", "A watched process's storage writes in the last second read.", "process"),
		series:    d("node_series", "A series of the node's own metrics (--node-metrics) as last scraped: a counter as its rate per second, a gauge as its value.", "series"),
		scrapes:   d("node_scrapes_total", "Scrapes of the node's metrics endpoint."),
		scrapeErr: d("node_scrape_failures_total", "Scrapes of the node's metrics endpoint that failed."),
	}
}

func (n *nodeDescs) all() []*prometheus.Desc {
	return []*prometheus.Desc{n.cpu, n.rss, n.threads, n.files, n.readRate, n.writeRate, n.series, n.scrapes, n.scrapeErr}
}

// collectNode emits the node's latest reading (the newest second of the timeline that has
// one) of a watched run.
func (c *Collector) collectNode(e emitter, st *engine.Stats) {
	w, n := st.Watch, &c.d.node
	if w == nil {
		return
	}
	if m := w.Metrics; m != nil {
		e.counter(n.scrapes, m.Scrapes)
		e.counter(n.scrapeErr, m.Failures)
	}
	var last *engine.WatchRow
	for i := len(st.Timeline) - 1; i >= 0 && last == nil; i-- {
		last = st.Timeline[i].Watch
	}
	if last == nil {
		return
	}
	for i, p := range last.Procs {
		if p != nil && i < len(w.Procs) {
			c.collectProc(e, w.Procs[i].Label, p)
		}
	}
	if last.Self != nil {
		c.collectProc(e, engine.SelfLabel, last.Self)
	}
	if m := w.Metrics; m != nil {
		for i, v := range last.Series {
			if v != nil && i < len(m.Series) {
				e.gauge(n.series, *v, m.Series[i].Selector)
			}
		}
	}
}

// collectProc emits one process's reading.
func (c *Collector) collectProc(e emitter, label string, p *engine.ProcUse) {
	n := &c.d.node
	e.gauge(n.cpu, p.CPU, label)
	e.gauge(n.rss, float64(p.RSS), label)
	e.gauge(n.threads, float64(p.Threads), label)
	if p.FDs != nil {
		e.gauge(n.files, float64(*p.FDs), label)
	}
	if p.ReadBps != nil && p.WriteBps != nil {
		e.gauge(n.readRate, *p.ReadBps, label)
		e.gauge(n.writeRate, *p.WriteBps, label)
	}
}
