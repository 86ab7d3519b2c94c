package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/rpcstress/rpcstress/engine"
)

// maxScrape is the largest exposition read: go-ethereum's is about 100 KB, node_exporter's a
// few hundred; one much larger is not what the profile meant to watch.
const maxScrape = 16 << 20

// scrapeTimeout bounds one scrape: under a second, so one scrape at most is ever in flight.
const scrapeTimeout = 900 * time.Millisecond

// acceptHeader asks for the text format, which every exporter speaks (protobuf is read too,
// when that is what comes back).
var acceptHeader = string(expfmt.NewFormat(expfmt.TypeTextPlain))

// scraper reads a node's Prometheus endpoint and keeps the selected series: gauges as their
// value, counters as their rate between the last two scrapes. Safe for concurrent use: a
// scrape runs in its own goroutine while the watcher reads the last values.
type scraper struct {
	url     string // as given: userinfo and query included, never shown
	display string
	client  *http.Client
	sels    []Selector
	// families are the families sels may pick from: the only ones turned into samples.
	families map[string]bool

	mu       sync.Mutex
	values   []*float64 // per selector, as of the last successful scrape
	kinds    []string
	matched  []int
	prev     []counterPoint // per selector: the counter's last value, for its rate
	stale    bool           // the last scrape failed
	scrapes  int64
	failures int64
	lastErr  string
	okTime   time.Duration // wall time of the successful scrapes, and how many
	okN      int64
	inFlight bool
	running  sync.WaitGroup // the scrape in flight, waited for when the watcher stops
}

// counterPoint is a counter's value at a scrape.
type counterPoint struct {
	ok bool
	at time.Time
	v  float64
}

func newScraper(url, display string, sels []Selector) *scraper {
	n := len(sels)
	return &scraper{
		url: url, display: display, sels: sels, families: familiesOf(sels),
		client: &http.Client{Timeout: scrapeTimeout},
		values: make([]*float64, n), kinds: make([]string, n), matched: make([]int, n), prev: make([]counterPoint, n),
	}
}

// start begins a scrape in the background unless one is still going; the channel closes when
// it is done (at once when none was started).
func (s *scraper) start(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	s.mu.Lock()
	busy := s.inFlight
	s.inFlight = true
	s.mu.Unlock()
	if busy {
		close(done)
		return done
	}
	s.running.Add(1)
	go func() {
		defer s.running.Done()
		defer close(done)
		s.scrape(ctx, time.Now())
		s.mu.Lock()
		s.inFlight = false
		s.mu.Unlock()
	}()
	return done
}

// scrape reads the endpoint once, at now, and files what it found; it returns the names of
// the series the endpoint has (for "did you mean"). A failure is counted and keeps the last
// values (stale); one cut short by the run's end is not a failure.
func (s *scraper) scrape(ctx context.Context, now time.Time) ([]string, error) {
	began := time.Now()
	found, err := s.fetch(ctx)
	took := time.Since(began)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scrapes++
	if err != nil {
		s.failures++
		s.lastErr = err.Error()
		s.stale = true
		return nil, err
	}
	s.stale = false
	s.okTime += took
	s.okN++
	for i := range s.sels {
		s.file(i, found.samples, found.kinds, now)
	}
	return found.names, nil
}

// file computes selector i's value from a scrape's samples, at now.
func (s *scraper) file(i int, samples model.Vector, kinds map[string]string, now time.Time) {
	sel := &s.sels[i]
	sum, n := 0.0, 0
	for _, smp := range samples {
		if sel.matches(smp.Metric) {
			sum += float64(smp.Value)
			n++
		}
	}
	s.matched[i] = n
	if n == 0 {
		s.values[i], s.prev[i] = nil, counterPoint{}
		return
	}
	s.kinds[i] = kinds[sel.Name]
	if sel.Rate {
		s.kinds[i] = engine.SeriesCounter
	}
	if s.kinds[i] != engine.SeriesCounter {
		s.values[i] = &sum
		return
	}
	prev := s.prev[i]
	s.prev[i] = counterPoint{ok: true, at: now, v: sum}
	wall := now.Sub(prev.at).Seconds()
	if !prev.ok || wall <= 0 {
		s.values[i] = nil
		return
	}
	// A counter that went back was reset (the node restarted): what it counted since is the
	// increase, as Prometheus's rate() takes it.
	inc := sum - prev.v
	if inc < 0 {
		inc = sum
	}
	rate := inc / wall
	s.values[i] = &rate
}

// scraped is what one scrape found: the samples of the families a selector may pick
// (histograms and summaries flattened into their _count, _sum and _bucket series), each sample
// name's kind, and the names of every series the endpoint has.
type scraped struct {
	samples model.Vector
	kinds   map[string]string
	names   []string
}

// fetch gets and decodes the exposition. Only the families a selector may pick are turned
// into samples: go-ethereum exposes some 1,700 series, and flattening them all (a map of
// labels each) was most of a scrape's cost.
func (s *scraper) fetch(ctx context.Context) (scraped, error) {
	ctx, cancel := context.WithTimeout(ctx, scrapeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return scraped{}, err
	}
	req.Header.Set("Accept", acceptHeader)
	resp, err := s.client.Do(req)
	if err != nil {
		return scraped{}, s.cleanErr(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return scraped{}, fmt.Errorf("HTTP %s", resp.Status)
	}
	// The answer is read whole first, so that its size and the time it takes are said as such
	// (a parser stopped half-way reads them as a broken exposition).
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxScrape+1))
	switch {
	case err != nil:
		return scraped{}, fmt.Errorf("reading the answer: %w", s.cleanErr(err))
	case len(body) > maxScrape:
		return scraped{}, fmt.Errorf("the answer is larger than %d MiB: is this a metrics endpoint?", maxScrape>>20)
	}
	dec := expfmt.NewDecoder(bytes.NewReader(body), expfmt.ResponseFormat(resp.Header))
	out := scraped{kinds: map[string]string{}}
	opts := &expfmt.DecodeOptions{Timestamp: model.Now()}
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return scraped{}, fmt.Errorf("not a Prometheus exposition: %s", parseMsg(err))
		}
		out.names = append(out.names, seriesNames(&mf)...)
		if !s.families[mf.GetName()] {
			continue
		}
		vec, err := expfmt.ExtractSamples(opts, &mf)
		if err != nil {
			return scraped{}, fmt.Errorf("reading %s: %w", mf.GetName(), err)
		}
		for _, smp := range vec {
			name := string(smp.Metric[model.MetricNameLabel])
			out.kinds[name] = kindOf(mf.GetType(), name)
		}
		out.samples = append(out.samples, vec...)
	}
	return out, nil
}

// seriesNames are the names of a family's series: its own, and a histogram's or a summary's
// _count, _sum (and _bucket).
func seriesNames(mf *dto.MetricFamily) []string {
	n := mf.GetName()
	switch mf.GetType() {
	case dto.MetricType_SUMMARY:
		return []string{n, n + "_count", n + "_sum"}
	case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
		return []string{n + "_bucket", n + "_count", n + "_sum"}
	}
	return []string{n}
}

// familiesOf are the family names the selectors may pick from: each name, and what it is
// the _count, _sum or _bucket of.
func familiesOf(sels []Selector) map[string]bool {
	out := map[string]bool{}
	for _, sel := range sels {
		out[sel.Name] = true
		for _, suffix := range []string{"_count", "_sum", "_bucket"} {
			if base, ok := strings.CutSuffix(sel.Name, suffix); ok {
				out[base] = true
			}
		}
	}
	return out
}

// kindOf is how a sample named name, of a family of type t, is shown: counters, and the
// counts, sums and buckets of histograms and summaries (which only grow), as rates per second;
// gauges, untyped values and a summary's quantiles as their values.
func kindOf(t dto.MetricType, name string) string {
	switch t {
	case dto.MetricType_COUNTER, dto.MetricType_HISTOGRAM:
		return engine.SeriesCounter
	case dto.MetricType_SUMMARY:
		if strings.HasSuffix(name, "_count") || strings.HasSuffix(name, "_sum") {
			return engine.SeriesCounter
		}
	}
	return engine.SeriesGauge
}

// cleanErr says why a request failed without the URL (net/http's "Get URL: …"): its userinfo
// and query may hold secrets, and the message names the endpoint anyway.
func (s *scraper) cleanErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout") {
		return fmt.Errorf("no answer within %s", scrapeTimeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return errors.New(strings.ReplaceAll(err.Error(), s.url, s.display))
}

// keep keeps only the selectors that matched in the last scrape (the defaults an endpoint
// has), and reports how many that is.
func (s *scraper) keep() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for i := range s.sels {
		if s.matched[i] > 0 {
			s.sels[n], s.values[n], s.kinds[n], s.matched[n], s.prev[n] = s.sels[i], s.values[i], s.kinds[i], s.matched[i], s.prev[i]
			n++
		}
	}
	s.sels, s.values, s.kinds, s.matched, s.prev = s.sels[:n], s.values[:n], s.kinds[:n], s.matched[:n], s.prev[:n]
	return n
}

// metrics is the endpoint as the snapshot and the views describe it, as of now.
func (s *scraper) metrics() *engine.WatchedMetrics {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := &engine.WatchedMetrics{URL: s.display, Scrapes: s.scrapes, Failures: s.failures, LastError: s.lastErr}
	if s.okN > 0 {
		m.ScrapeMs = float64((s.okTime / time.Duration(s.okN)).Microseconds()) / 1000
	}
	for i, sel := range s.sels {
		m.Series = append(m.Series, engine.WatchedSeries{Selector: sel.Text, Kind: s.kinds[i], Matched: s.matched[i]})
	}
	return m
}

// last is the series' values as of the last successful scrape, and whether the last scrape
// failed.
func (s *scraper) last() ([]*float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*float64, len(s.values))
	copy(out, s.values) // the pointers are never written through: a scrape makes new ones
	return out, s.stale
}
