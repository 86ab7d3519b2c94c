package promexport

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// series is one scrape: each series' value by its name and labels, written as the text format
// writes them (labels sorted), without the constant target label (checked apart, see
// targets). A histogram gives its _bucket, _count and _sum series.
type series map[string]float64

// gather scrapes c as a registry does for Prometheus; it fails the test on any error, such as
// an invalid metric.
func gather(t testing.TB, c prometheus.Collector) (series, map[string]string) {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(c); err != nil {
		t.Fatal(err)
	}
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out, targets := series{}, map[string]string{}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				if l.GetName() == "target" {
					targets[f.GetName()] = l.GetValue()
					continue
				}
				labels = append(labels, l.GetName()+"="+strconv.Quote(l.GetValue()))
			}
			addSeries(out, f.GetName(), labels, m)
		}
	}
	return out, targets
}

func addSeries(out series, name string, labels []string, m *dto.Metric) {
	key := func(name string, extra ...string) string {
		l := append(append([]string(nil), labels...), extra...)
		sort.Strings(l)
		return name + "{" + strings.Join(l, ",") + "}"
	}
	switch {
	case m.Counter != nil:
		out[key(name)] = m.Counter.GetValue()
	case m.Gauge != nil:
		out[key(name)] = m.Gauge.GetValue()
	case m.Histogram != nil:
		h := m.Histogram
		out[key(name+"_count")] = float64(h.GetSampleCount())
		out[key(name+"_sum")] = h.GetSampleSum()
		for _, b := range h.GetBucket() {
			le := strconv.FormatFloat(b.GetUpperBound(), 'g', -1, 64)
			out[key(name+"_bucket", "le="+strconv.Quote(le))] = float64(b.GetCumulativeCount())
		}
		out[key(name+"_bucket", `le="+Inf"`)] = float64(h.GetSampleCount())
	}
}

// sum adds the series of name whose labels contain every one of with ("outcome=\"ok\"").
func (s series) sum(name string, with ...string) float64 {
	var n float64
	for k, v := range s {
		base, labels, _ := strings.Cut(k, "{")
		if base != name {
			continue
		}
		ok := true
		for _, w := range with {
			ok = ok && strings.Contains(labels, w)
		}
		if ok {
			n += v
		}
	}
	return n
}
