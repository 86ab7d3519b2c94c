package watch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"

	"github.com/rpcstress/rpcstress/engine"
)

// exposition is a node's metrics endpoint whose answer the test sets.
type exposition struct {
	mu     sync.Mutex
	body   string
	status int
	delay  time.Duration
	proto  []*dto.MetricFamily // answer in the protobuf format instead
}

func (e *exposition) set(body string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.body, e.status, e.proto = body, http.StatusOK, nil
}

func (e *exposition) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	body, status, delay, fams := e.body, e.status, e.delay, e.proto
	e.mu.Unlock()
	time.Sleep(delay)
	if fams != nil {
		format := expfmt.NewFormat(expfmt.TypeProtoDelim)
		w.Header().Set("Content-Type", string(format))
		enc := expfmt.NewEncoder(w, format)
		for _, f := range fams {
			_ = enc.Encode(f)
		}
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func startExposition(t testing.TB, body string) (*exposition, string) {
	t.Helper()
	e := &exposition{}
	e.set(body)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return e, srv.URL + "/metrics"
}

func selectors(t testing.TB, texts ...string) []Selector {
	t.Helper()
	var out []Selector
	for _, s := range texts {
		sel, err := ParseSelector(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sel)
	}
	return out
}

const nodeMetrics = `# TYPE chain_head_block gauge
chain_head_block %HEAD%
# TYPE rpc_requests counter
rpc_requests %REQ%
# TYPE node_cpu_seconds_total counter
node_cpu_seconds_total{cpu="0",mode="user"} %U0%
node_cpu_seconds_total{cpu="1",mode="user"} %U1%
node_cpu_seconds_total{cpu="0",mode="idle"} 1000
# TYPE rpc_duration summary
rpc_duration{quantile="0.5"} 0.25
rpc_duration_sum 12
rpc_duration_count %REQ%
`

func metricsBody(kv ...string) string {
	return strings.NewReplacer(kv...).Replace(nodeMetrics)
}

// TestScrapeValues: gauges read as their value, counters (and a summary's count) as their
// rate between two scrapes, rate(…) a gauge as a rate too, the series a selector matches added up, a counter that went back
// (the node restarted) counted from zero as Prometheus's rate() does.
func TestScrapeValues(t *testing.T) {
	e, url := startExposition(t, metricsBody("%HEAD%", "100", "%REQ%", "1000", "%U0%", "10", "%U1%", "20"))
	s := newScraper(url, url, selectors(t, "chain_head_block", "rpc_requests", `node_cpu_seconds_total{mode="user"}`,
		"rpc_duration_count", `rpc_duration{quantile="0.5"}`, "no_such_series", "rate(chain_head_block)"))
	ctx := context.Background()
	t0 := time.Unix(1000, 0)
	for i, step := range []struct {
		at   time.Duration
		body string
		want []any // per selector: a value, or nil for none
	}{
		// The first scrape: gauges have values, counters no rate yet.
		{0, "", []any{100.0, nil, nil, nil, 0.25, nil, nil}},
		// Two seconds on: rpc_requests +400 → 200/s, user CPU (both cores) +3 s → 1.5/s.
		{2 * time.Second, metricsBody("%HEAD%", "104", "%REQ%", "1400", "%U0%", "11", "%U1%", "22"),
			[]any{104.0, 200.0, 1.5, 200.0, 0.25, nil, 2.0}},
		// The node restarted: its counters start again, the increase is what they hold.
		{4 * time.Second, metricsBody("%HEAD%", "104", "%REQ%", "100", "%U0%", "1", "%U1%", "1"),
			[]any{104.0, 50.0, 1.0, 50.0, 0.25, nil, 0.0}},
	} {
		if step.body != "" {
			e.set(step.body)
		}
		if _, err := s.scrape(ctx, t0.Add(step.at)); err != nil {
			t.Fatalf("scrape %d: %v", i, err)
		}
		got, stale := s.last()
		if stale {
			t.Errorf("scrape %d: stale", i)
		}
		for j, w := range step.want {
			switch {
			case w == nil && got[j] != nil:
				t.Errorf("scrape %d, %s: %v, want none", i, s.sels[j].Text, *got[j])
			case w != nil && (got[j] == nil || *got[j] != w.(float64)):
				t.Errorf("scrape %d, %s: %v, want %v", i, s.sels[j].Text, got[j], w)
			}
		}
	}
	m := s.metrics()
	wantKinds := []string{engine.SeriesGauge, engine.SeriesCounter, engine.SeriesCounter, engine.SeriesCounter, engine.SeriesGauge, "", engine.SeriesCounter}
	wantMatched := []int{1, 1, 2, 1, 1, 0, 1}
	for j, ser := range m.Series {
		if ser.Kind != wantKinds[j] || ser.Matched != wantMatched[j] {
			t.Errorf("%s: kind %q matched %d, want %q %d", ser.Selector, ser.Kind, ser.Matched, wantKinds[j], wantMatched[j])
		}
	}
	if m.Scrapes != 3 || m.Failures != 0 || m.ScrapeMs <= 0 {
		t.Errorf("metrics %+v", m)
	}
}

// TestScrapeProtobuf: an endpoint that answers in the protobuf format is read too.
func TestScrapeProtobuf(t *testing.T) {
	e, url := startExposition(t, "")
	e.mu.Lock()
	e.proto = []*dto.MetricFamily{{
		Name: proto.String("chain_head_block"), Type: dto.MetricType_GAUGE.Enum(),
		Metric: []*dto.Metric{{Gauge: &dto.Gauge{Value: proto.Float64(77)}}},
	}}
	e.mu.Unlock()
	s := newScraper(url, url, selectors(t, "chain_head_block"))
	if _, err := s.scrape(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.last(); got[0] == nil || *got[0] != 77 {
		t.Fatalf("got %v", got[0])
	}
}

// TestScrapeFailures: each way an endpoint can fail is counted with its reason, never fatal;
// the series keep the last good values, marked stale; the URL's secrets stay out of the
// reason.
func TestScrapeFailures(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL + "/metrics?token=s3cret"
	dead.Close()
	for _, tc := range []struct {
		name   string
		change func(e *exposition)
		url    string // instead of the endpoint's
		want   string
	}{
		// The endpoint answers 404 (a wrong path).
		{"not found", func(e *exposition) { e.mu.Lock(); e.status = http.StatusNotFound; e.mu.Unlock() }, "", "HTTP 404 Not Found"},
		// An HTML page, not metrics.
		{"html", func(e *exposition) { e.set("<html><body>hello</body></html>") }, "", "not a Prometheus exposition"},
		// Far too much.
		{"too large", func(e *exposition) { e.set("# " + strings.Repeat("x", maxScrape+10)) }, "", "larger than 16 MiB"},
		// Too slow: the scrape gives up before the next one is due.
		{"slow", func(e *exposition) { e.mu.Lock(); e.delay = 1200 * time.Millisecond; e.mu.Unlock() }, "", "no answer within 900ms"},
		// Nothing listens; the token in the query is not shown.
		{"refused", func(*exposition) {}, deadURL, "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, url := startExposition(t, "# TYPE chain_head_block gauge\nchain_head_block 9\n")
			s := newScraper(url, "node", selectors(t, "chain_head_block"))
			if _, err := s.scrape(context.Background(), time.Now()); err != nil {
				t.Fatal(err)
			}
			tc.change(e)
			if tc.url != "" {
				s.url = tc.url
			}
			_, err := s.scrape(context.Background(), time.Now())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			got, stale := s.last()
			m := s.metrics()
			if !stale || got[0] == nil || *got[0] != 9 {
				t.Errorf("after a failure: %v stale %v; want the last value, stale", got[0], stale)
			}
			if m.Scrapes != 2 || m.Failures != 1 || m.LastError != err.Error() || strings.Contains(m.LastError, "s3cret") {
				t.Errorf("metrics %+v", m)
			}
		})
	}
}

// TestScrapeCancelled: a scrape cut short by the run's end is no failure.
func TestScrapeCancelled(t *testing.T) {
	e, url := startExposition(t, "a 1\n")
	e.mu.Lock()
	e.delay = 500 * time.Millisecond
	e.mu.Unlock()
	s := newScraper(url, url, selectors(t, "a"))
	ctx, cancel := context.WithCancel(context.Background())
	done := s.start(ctx)
	time.Sleep(50 * time.Millisecond)
	cancel()
	<-done
	if m := s.metrics(); m.Scrapes != 0 || m.Failures != 0 {
		t.Fatalf("metrics %+v", m)
	}
}
