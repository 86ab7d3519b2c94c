package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/watch"
)

// watchFlags are --watch-pid (repeatable) and --node-metrics: the node's resources beside the
// run, added to what the profile's watch and [node_metrics] name.
type watchFlags struct {
	pids    specList
	metrics string
}

// specList is a flag that may be given several times.
type specList []string

func (l *specList) String() string     { return strings.Join(*l, ",") }
func (l *specList) Set(s string) error { *l = append(*l, s); return nil }

func (w *watchFlags) declare(fs *flag.FlagSet) {
	fs.Var(&w.pids, "watch-pid", "watch a process on this machine beside the run (CPU, memory, threads, files, disk): its `pid`, name or pid file; repeat for more")
	fs.StringVar(&w.metrics, "node-metrics", "", "scrape a node's Prometheus endpoint at this `URL` each second (the series: [node_metrics] in the profile)")
}

// config joins the flags with the profile's watch keys; nothing watched gives a config that
// is not Enabled. Every error names its flag or its file:line.
func (w *watchFlags) config(p *profiles.Profile) (watch.Config, error) {
	pw := p.Watch
	cfg := watch.Config{Procs: append([]watch.Target(nil), pw.Procs...)}
	for _, spec := range w.pids {
		cfg.Procs = append(cfg.Procs, watch.Target{Spec: spec, Where: "--watch-pid"})
	}
	url, display, where := pw.MetricsURL, pw.MetricsDisplay, pw.URLWhere
	if w.metrics != "" {
		scheme, _, ok := strings.Cut(w.metrics, "://")
		switch {
		case !ok:
			return cfg, fmt.Errorf("--node-metrics %q: write the scheme too, e.g. http://%s", w.metrics, w.metrics)
		case scheme != "http" && scheme != "https":
			return cfg, fmt.Errorf("--node-metrics: scheme %q is not supported: use http:// or https://", scheme)
		}
		url, display, where = w.metrics, profiles.DisplayURL(w.metrics), "--node-metrics"
	}
	switch {
	case url != "":
		cfg.Metrics = &watch.Metrics{URL: url, Display: display, Series: pw.Series, Where: where}
	case len(pw.Series) > 0:
		return cfg, fmt.Errorf("%s: names series but no endpoint to scrape them from: add url to [node_metrics] or give --node-metrics URL", pw.SeriesWhere)
	}
	return cfg, nil
}

// startWatch finds what the run watches, before anything is sent: a process that is not
// there is bad input (exit 2); what is only worth knowing is printed as a warning. It returns
// nil when nothing is watched.
func (c *cli) startWatch(ctx context.Context, p *profiles.Profile, f *watchFlags) (engine.Watcher, error) {
	cfg, err := f.config(p)
	if err != nil || !cfg.Enabled() {
		return nil, err
	}
	w, warnings, err := watch.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	for _, warn := range warnings {
		fmt.Fprintf(c.stderr, "rpcstress: warning: %s\n", safetext.Line(warn))
	}
	return w, nil
}
