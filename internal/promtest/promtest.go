// Package promtest starts a real Prometheus server (Debian's prometheus package) for a test:
// its own config and data directory, scraping given targets every second, and queries it
// through its HTTP API. Test support only.
package promtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/proctest"
	"github.com/rpcstress/rpcstress/internal/syncbuf"
)

// Server is a running Prometheus.
type Server struct {
	URL string // http://127.0.0.1:PORT
	log *syncbuf.Buffer
}

// Require finds the prometheus binary, or skips the test where it is absent outside CI (in CI,
// .ci/run installs it, so its absence is a failure).
func Require(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("prometheus")
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatal("prometheus not found and CI is set: .ci/run installs it (apt-get install -y prometheus); the CI setup is broken")
	}
	t.Skip("prometheus not found: install it (Debian: apt-get install -y prometheus) to run the Prometheus tests; CI always runs them")
	return ""
}

// CheckConfig checks a Prometheus config file with promtool where it is installed (Debian's
// prometheus package brings it); without promtool the check is passed over, not the test.
func CheckConfig(ctx context.Context, t testing.TB, path string) {
	t.Helper()
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Logf("no promtool: %s is not checked", path)
		return
	}
	if out, err := exec.CommandContext(ctx, promtool, "check", "config", path).CombinedOutput(); err != nil {
		t.Errorf("%s: %v\n%s", path, err, out)
	}
}

// Start starts Prometheus scraping targets (host:port) every second for the rest of the test
// and returns once it is ready.
func Start(t testing.TB, targets ...string) *Server {
	t.Helper()
	bin := Require(t)
	dir := t.TempDir()
	quoted := make([]string, len(targets))
	for i, tg := range targets {
		quoted[i] = strconv.Quote(tg)
	}
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n"+
		"scrape_configs:\n  - job_name: rpcstress\n    static_configs:\n      - targets: [%s]\n", strings.Join(quoted, ", "))
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := proctest.FreeAddr(t)
	p, err := proctest.Start(t, exec.Command(bin, "--config.file="+cfgPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(os.Interrupt, 10*time.Second) }) // its own way down first
	s := &Server{URL: "http://" + addr, log: p.Out}
	ready := func() bool {
		resp, err := http.Get(s.URL + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK && s.scraping(len(targets))
	}
	if err := p.Await(30*time.Second, "readiness", ready); err != nil {
		t.Fatalf("prometheus: %v", err)
	}
	return s
}

// scraping reports whether Prometheus scrapes its n targets already (up or not). Prometheus
// applies new targets a few seconds after it is ready (its scrape manager batches updates): a
// run started before would miss its first seconds.
func (s *Server) scraping(n int) bool {
	resp, err := http.Get(s.URL + "/api/v1/targets?state=active")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var ans struct {
		Data struct {
			ActiveTargets []struct {
				Health string `json:"health"`
			} `json:"activeTargets"`
		} `json:"data"`
	}
	if json.NewDecoder(resp.Body).Decode(&ans) != nil || len(ans.Data.ActiveTargets) < n {
		return false
	}
	for _, tg := range ans.Data.ActiveTargets {
		if tg.Health == "unknown" { // not scraped yet
			return false
		}
	}
	return true
}

// Sample is one series of a query's answer.
type Sample struct {
	Metric map[string]string
	Value  float64
}

// Query evaluates an instant query at time at.
func (s *Server) Query(ctx context.Context, query string, at time.Time) ([]Sample, error) {
	u := s.URL + "/api/v1/query?" + url.Values{"query": {query}, "time": {strconv.FormatFloat(float64(at.UnixNano())/1e9, 'f', 3, 64)}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var ans struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil {
		return nil, fmt.Errorf("query %s: %w", query, err)
	}
	if ans.Status != "success" {
		return nil, fmt.Errorf("query %s: %s", query, ans.Error)
	}
	out := make([]Sample, 0, len(ans.Data.Result))
	for _, r := range ans.Data.Result {
		str, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(str, 64)
		if err != nil {
			return nil, fmt.Errorf("query %s: value %v: %w", query, r.Value[1], err)
		}
		out = append(out, Sample{Metric: r.Metric, Value: v})
	}
	return out, nil
}

// Log is what Prometheus printed, for a failing test's message.
func (s *Server) Log() string { return s.log.String() }
