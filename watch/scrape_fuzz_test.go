package watch

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// bodyTransport answers every request with body, as text.
type bodyTransport string

func (b bodyTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK",
		Header: http.Header{"Content-Type": {"text/plain; version=0.0.4"}},
		Body:   io.NopCloser(strings.NewReader(string(b))),
	}, nil
}

// FuzzScrapeBody: whatever an endpoint answers, a scrape gives values or a counted failure,
// never a panic; a value is only ever where a series matched.
func FuzzScrapeBody(f *testing.F) {
	for _, s := range []string{
		"a 1\n", "# TYPE a counter\na 1\n", "# TYPE a summary\na{quantile=\"0.5\"} 1\na_sum 2\na_count 3\n",
		"# TYPE a histogram\na_bucket{le=\"+Inf\"} 1\na_sum 1\na_count 1\n", "a{b=\"c\"} NaN\n", "<html>", "a 1 2 3\n", "",
	} {
		f.Add(s)
	}
	sels := []Selector{{Text: "a", Name: "a", Labels: map[string]string{}}, {Text: "a_count", Name: "a_count", Labels: map[string]string{}}}
	f.Fuzz(func(t *testing.T, body string) {
		s := newScraper("http://node/metrics", "node", sels)
		s.client.Transport = bodyTransport(body)
		failures := int64(0)
		for i := range 2 {
			_, err := s.scrape(context.Background(), time.Unix(int64(1000+i), 0))
			if err != nil {
				failures++
			}
			m := s.metrics()
			if m.Failures != failures || m.Scrapes != int64(i+1) {
				t.Fatalf("after %d scrapes (%v): %+v", i+1, err, m)
			}
			vals, _ := s.last()
			for j, v := range vals {
				if v != nil && m.Series[j].Matched == 0 {
					t.Fatalf("a value for %s without a match", sels[j].Text)
				}
			}
		}
	})
}
