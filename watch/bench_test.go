package watch

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/procfs"
)

// BenchmarkProcRead is one second's reading of one process (stat, open files, disk I/O):
// what watching a pid costs each second. ns/op ÷ 10⁷ is the share of a core, in percent.
func BenchmarkProcRead(b *testing.B) {
	p, err := procfs.NewProc(os.Getpid())
	if err != nil {
		b.Skip("no /proc")
	}
	r, _, err := newProcReader(p, os.Getpid(), time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	now := time.Now()
	for b.Loop() {
		now = now.Add(time.Second)
		if _, err := r.read(now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScrape is one scrape of an endpoint the size of go-ethereum's (about 1,700
// series: gauges, counters and summaries), picking three series: what --node-metrics costs
// rpcstress each second.
func BenchmarkScrape(b *testing.B) {
	var body strings.Builder
	for i := range 300 {
		fmt.Fprintf(&body, "# TYPE g%d gauge\ng%d %d\n# TYPE c%d counter\nc%d %d\n", i, i, i, i, i, i*10)
		fmt.Fprintf(&body, "# TYPE s%d summary\n", i)
		for _, q := range []string{"0.5", "0.75", "0.95"} {
			fmt.Fprintf(&body, "s%d{quantile=%q} %d\n", i, q, i)
		}
		fmt.Fprintf(&body, "s%d_sum %d\ns%d_count %d\n", i, i, i, i)
	}
	e, url := startExposition(b, body.String())
	_ = e
	s := newScraper(url, url, []Selector{{Text: "g7", Name: "g7"}, {Text: "c9", Name: "c9"}, {Text: "s3_count", Name: "s3_count"}})
	b.SetBytes(int64(body.Len()))
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.scrape(ctx, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}
