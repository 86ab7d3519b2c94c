package main

import (
	"math"
	"testing"
)

// The samples are trimmed from real outputs of the tool versions run.sh installs.

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

func TestParsers(t *testing.T) {
	cases := []struct {
		name          string
		parse         func(string) (ToolResult, error)
		in            string
		n, p50, p99   float64
		wantLatencies bool
	}{
		{"wrk", parseWrk, `Running 2s test @ http://127.0.0.1:18899/
  1 threads and 50 connections
  Latency Distribution
     50%  594.00us
     75%    2.30ms
     90%    3.97ms
     99%    7.00ms
  94538 requests in 2.01s, 14.34MB read
Requests/sec:  46975.99
`, 94538, 0.594, 7, true},
		{"hey", parseHey, `Summary:
  Total:	2.0017 secs
  Requests/sec:	16466.6231

Latency distribution:
  10% in 0.0006 secs
  50% in 0.0022 secs
  99% in 0.0081 secs

Status code distribution:
  [200]	32962 responses
  [429]	10 responses

Error distribution:
  [3]	Post "http://127.0.0.1:18899/": EOF
`, 32975, 2.2, 8.1, true},
		{"bombardier", parseBombardier, `{"spec":{"numberOfConnections":50},"result":{"timeTakenSeconds":2.0,"req1xx":0,"req2xx":91911,"req3xx":0,"req4xx":9,"req5xx":0,"others":0,"latency":{"mean":1086.5,"percentiles":{"50":517,"75":830,"99":8005}}}}`,
			91920, 0.517, 8.005, true},
		{"vegeta", parseVegeta, `{"latencies":{"50th":323015,"99th":7617481},"requests":9997,"duration":2000010602,"wait":107691}`,
			9997, 0.323015, 7.617481, true},
		{"oha", parseOha, `{"summary":{"total":2.0,"requestsPerSec":4995.6},"latencyPercentiles":{"p50":0.000110304,"p99":0.000257745},"statusCodeDistribution":{"200":10000},"errorDistribution":{"connection closed":2}}`,
			10002, 0.110304, 0.257745, true},
		{"rpcstress", parseRpcstress, `{"schema":"rpcstress.snapshot/v1","totals":{"completed":40000,"rps":19982.56,"latency_ms":{"p50":1.552,"p99":8.011}}}`,
			40000, 1.552, 8.011, true},
		{"floor -work", parseFloor, "sent 40000 answered 40000 failed 0 held 0 dropped 0 in 8.001 s mean latency 0.546 ms p50 0.561 ms p99 1.053 ms (HDR)\n",
			40000, 0.561, 1.053, true},
		{"floor", parseFloor, "sent 40000 answered 39990 failed 0 held 0 dropped 0 in 8.001 s mean latency 0.546 ms\n",
			39990, 0, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.parse(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if !near(r.Completed, c.n) || !near(r.P50, c.p50) || !near(r.P99, c.p99) || r.HasLat != c.wantLatencies {
				t.Errorf("got n=%v p50=%v p99=%v lat=%v, want n=%v p50=%v p99=%v", r.Completed, r.P50, r.P99, r.HasLat, c.n, c.p50, c.p99)
			}
			if r.RPS <= 0 {
				t.Errorf("no rate read: %+v", r)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for name, f := range map[string]func(string) (ToolResult, error){
		"wrk": parseWrk, "hey": parseHey, "bombardier": parseBombardier, "vegeta": parseVegeta, "oha": parseOha, "rpcstress": parseRpcstress,
		"floor": parseFloor,
	} {
		if _, err := f("connection refused\n"); err == nil {
			t.Errorf("%s: no error for output that is not its own", name)
		}
	}
}

// TestStallTruth checks the derivation stated in RESULTS.md: 10 % of requests stalled on a 10 s run
// gives p99 = 200·(1 − 0.01/0.1) = 180 ms.
func TestStallTruth(t *testing.T) {
	for _, c := range []struct{ secs, want float64 }{
		{10, 180},
		{4, 180},
		{3, 200 * (1 - 0.01/(0.2/3))},
		{1, 0},
	} {
		if got := stallTruth(c.secs); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("stallTruth(%v) = %v, want %v", c.secs, got, c.want)
		}
	}
}

func TestSpread(t *testing.T) {
	s := spread([]float64{3, 1, 2})
	if s.Median != 2 || s.Min != 1 || s.Max != 3 || s.cell(fSig) != "2.00 [1.00–3.00]" {
		t.Errorf("spread = %+v, %q", s, s.cell(fSig))
	}
	if got := fInt(1234567); got != "1,234,567" {
		t.Errorf("fInt = %q", got)
	}
}

func TestParseTime(t *testing.T) {
	cpu, rss, wall := parseTime("Command exited with non-zero status 1\n0.27 0.69 12700 2.02\n")
	if !near(cpu, 0.96) || rss != 12700 || wall != 2.02 {
		t.Errorf("parseTime = %v %v %v", cpu, rss, wall)
	}
}
