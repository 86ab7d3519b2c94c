package promexport

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/rpcstress/rpcstress/engine"
)

// BenchmarkScrape is one whole scrape of the run's collector as promhttp serves it (gather,
// then the text format), for a mix of 1, 10 and 1,000 requests (the most that get rows of their
// own) with 20 statuses and 20 JSON-RPC error codes. Its cost follows the series, never the
// request rate: a scrape reads the published view, whatever it counts.
func BenchmarkScrape(b *testing.B) {
	for _, requests := range []int{1, 10, engine.MaxRequestRows} {
		b.Run(strconv.Itoa(requests)+"-requests", func(b *testing.B) {
			st := manyStats(requests, 20)
			c := NewCollector(Options{Target: st.Target, Mode: "open"})
			c.SetSource(func() *engine.Stats { return st })
			reg := prometheus.NewRegistry()
			reg.MustRegister(c)
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				fams, err := reg.Gather()
				if err != nil {
					b.Fatal(err)
				}
				buf.Reset()
				enc := expfmt.NewEncoder(&buf, expfmt.NewFormat(expfmt.TypeTextPlain))
				for _, f := range fams {
					if err := enc.Encode(f); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes/scrape")
		})
	}
}

// manyStats is a view with requests rows and codes statuses and JSON-RPC error codes.
func manyStats(requests, codes int) *engine.Stats {
	st := fakeStats()
	st.Total.ByRequest = map[string]engine.Summary{}
	st.LatencyByRequest = map[string]engine.LatencyCounts{}
	lat := fakeStats().LatencyByRequest["getBalance"]
	for i := range requests {
		name := "method" + strconv.Itoa(i)
		st.Total.ByRequest[name] = engine.Summary{OK: int64(i), Limited: 1, Failed: 2}
		st.LatencyByRequest[name] = lat
	}
	for i := range codes {
		st.Total.Status[strconv.Itoa(200+i)] = int64(i)
		st.Total.RPCErrors[strconv.Itoa(-32000-i)] = int64(i)
	}
	return st
}
