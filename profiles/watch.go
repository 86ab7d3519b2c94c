package profiles

import (
	"strconv"

	"github.com/rpcstress/rpcstress/watch"
)

// NodeWatch is what a profile watches beside the load: processes on this machine (watch) and
// a node's Prometheus endpoint ([node_metrics]). The command line adds processes
// (--watch-pid) and names the endpoint (--node-metrics); the root joins them into a
// watch.Config.
type NodeWatch struct {
	// Procs are the watch list's entries, each with where it was written.
	Procs []watch.Target
	// MetricsURL is node_metrics.url as given (${VAR}s expanded), MetricsDisplay as shown;
	// empty when the profile names no endpoint.
	MetricsURL, MetricsDisplay string
	// Series are node_metrics.series; none means the defaults the endpoint has.
	Series []watch.Selector
	// SeriesWhere is where the series were written ("p.toml:12: node_metrics.series").
	SeriesWhere, URLWhere string
}

func nodeMetricsKeys() []string { return []string{"url", "series"} }

// maxWatched bounds the watch list and the series: each is a line of the dashboard's pane and
// columns of the CSV; dozens are a mistake.
const maxWatched = 32

// nodeWatch reads the watch list and [node_metrics]:
//
//	watch = ["geth", 1234, "/run/geth.pid"]     # a process name, a pid, a pid file
//	[node_metrics]
//	url = "http://10.0.0.5:6060/debug/metrics/prometheus"
//	series = ["chain_head_block", 'rate(rpc_requests)', 'p2p_peers{direction="inbound"}']
func (c *checker) nodeWatch(doc table, getenv func(string) (string, bool)) NodeWatch {
	var w NodeWatch
	if list, ok := value[[]any](c, doc, "", "watch", "a list", `watch = ["geth"] (process names, pids or pid files)`); ok {
		if len(list) > maxWatched {
			c.addf("watch", "lists %d processes: watch at most %d", len(list), maxWatched)
		}
		for i, e := range list {
			field := "watch[" + strconv.Itoa(i+1) + "]"
			var spec string
			switch v := e.(type) {
			case string:
				spec = v
			case int64:
				spec = strconv.FormatInt(v, 10)
			default:
				c.addf(field, "is %s: write a process name (\"geth\"), a pid (1234) or a pid file (\"/run/geth.pid\")", describeValue(e))
				continue
			}
			if spec == "" {
				c.addf(field, `is empty: write a process name ("geth"), a pid (1234) or a pid file ("/run/geth.pid")`)
				continue
			}
			w.Procs = append(w.Procs, watch.Target{Spec: spec, Where: c.where(field)})
		}
	}
	t, ok := c.subTable(doc, "", "node_metrics", `[node_metrics] with url = "http://127.0.0.1:6060/debug/metrics/prometheus"`)
	if !ok {
		return w
	}
	c.unknownKeys(t, "node_metrics", nodeMetricsKeys())
	if s, ok := c.str(t, "node_metrics", "url", `url = "http://127.0.0.1:6060/debug/metrics/prometheus"`); ok {
		if u, used, ok := c.env("node_metrics.url", s, getenv); ok {
			if err := checkURL(u); err != nil {
				c.addErr("node_metrics.url", err, "%s", err.Error())
			}
			w.MetricsURL, w.MetricsDisplay, w.URLWhere = u, displayFor(u, used), c.where("node_metrics.url")
		}
	}
	list, ok := value[[]any](c, t, "node_metrics", "series", "a list of series", `series = ["chain_head_block", "rate(rpc_requests)"]`)
	if !ok {
		return w
	}
	if len(list) > maxWatched {
		c.addf("node_metrics.series", "names %d series: show at most %d", len(list), maxWatched)
	}
	w.SeriesWhere = c.where("node_metrics.series")
	for i, e := range list {
		field := "node_metrics.series[" + strconv.Itoa(i+1) + "]"
		s, isStr := e.(string)
		if !isStr {
			c.addf(field, `is %s: write a series name in quotes, e.g. "chain_head_block"`, describeValue(e))
			continue
		}
		sel, err := watch.ParseSelector(s)
		if err != nil {
			c.addErr(field, err, "%s", err.Error())
			continue
		}
		w.Series = append(w.Series, sel)
	}
	return w
}

// where is "file:line: field", how messages about a value begin.
func (c *checker) where(field string) string {
	return c.file + ":" + strconv.Itoa(c.lines.line(field)) + ": " + field
}
