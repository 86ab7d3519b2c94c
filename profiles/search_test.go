package profiles

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine/search"
)

const searchBase = "url = \"http://h\"\n[[request]]\nmethod = \"a\"\n"

func TestSearchTable(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want func(c search.Config) bool
	}{
		// No [[stage]] is needed next to a [search]: the search makes its own plan.
		{"defaults", searchBase + "[search]\n", func(c search.Config) bool {
			d := search.DefaultConfig()
			return c.Start == d.Start && c.Max == d.Max && c.Probe == d.Probe && c.SLO == d.SLO
		}},
		// Every key, the latency clause as p99.
		{"all keys", searchBase + `[search]
start = "240/m"
max = "50000/s"
probe = "5s"
settle = "1s"
precision = "2%"
budget = "10m"
p99 = "50ms"
max_limited = "0.5%"
max_failed = "0%"
min_success = "99%"
`, func(c search.Config) bool {
			return c.Start == 4 && c.Max == 50000 && c.Probe == 5*time.Second && c.Settle == time.Second &&
				c.PrecisionPct == 2 && c.Budget == 10*time.Minute && c.SLO.Percentile == 99 &&
				c.SLO.Latency == 50*time.Millisecond && c.SLO.MaxLimitedPct == 0.5 && c.SLO.MaxFailedPct == 0 &&
				c.SLO.MinSuccessPct == 99
		}},
		// The latency clause as percentile + latency.
		{"percentile and latency", searchBase + "[search]\npercentile = 99.9\nlatency = \"200ms\"\n", func(c search.Config) bool {
			return c.SLO.Percentile == 99.9 && c.SLO.Latency == 200*time.Millisecond
		}},
		// p95 alone.
		{"p95", searchBase + "[search]\np95 = \"20ms\"\n", func(c search.Config) bool {
			return c.SLO.Percentile == 95 && c.SLO.Latency == 20*time.Millisecond
		}},
	}
	for _, tt := range tests {
		p, err := LoadBytes("t.toml", []byte(tt.src), "testdata", nil)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !p.HasSearch || !tt.want(p.Search) {
			t.Errorf("%s: got %+v", tt.name, p.Search)
		}
	}
}

func TestSearchAndThresholdErrors(t *testing.T) {
	checkProblems(t, []problemCase{
		// A typo in [search] suggests the key.
		{"search typo", searchBase + "[search]\nmax_limted = \"1%\"\n", nil, 5, "search.max_limted", `did you mean "max_limited"?`},
		// A share without its % sign.
		{"bare share", searchBase + "[search]\nmax_failed = 0.1\n", nil, 5, "search.max_failed", `write a percentage in quotes`},
		// A percentage string that is no number.
		{"bad share", searchBase + "[search]\nmax_failed = \"lots%\"\n", nil, 5, "search.max_failed", `is not a percentage`},
		// max below start.
		{"max below start", searchBase + "[search]\nstart = \"1000/s\"\nmax = \"100/s\"\n", nil, 6, "search.max", "below start"},
		// Two latency clauses.
		{"two latency clauses", searchBase + "[search]\np99 = \"50ms\"\np95 = \"20ms\"\n", nil, 6, "search.p95", "one latency clause"},
		// A percentile rpcstress does not keep.
		{"unknown percentile", searchBase + "[search]\npercentile = 98\nlatency = \"50ms\"\n", nil, 5, "search.percentile", "50, 75, 90, 95, 99 or 99.9"},
		// A budget too short for one probe.
		{"short budget", searchBase + "[search]\nprobe = \"10s\"\nbudget = \"5s\"\n", nil, 6, "search.budget", "shorter than one probe"},
		// A mistyped metric is an error with a suggestion, never a silent pass.
		{"threshold typo", searchBase + "[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n[thresholds]\np99 = \"< 50ms\"\nlimted = \"< 1%\"\n", nil, 9, "thresholds.limted", `unknown metric: did you mean "limited"?`},
		// A metric like nothing lists them all.
		{"threshold unknown", searchBase + "[[stage]]\nrate = \"1/s\"\n[thresholds]\nzzzz = \"< 1\"\n", nil, 7, "thresholds.zzzz", "use one of p50, p75"},
		// A bound without an operator.
		{"threshold no operator", searchBase + "[[stage]]\nrate = \"1/s\"\n[thresholds]\np99 = \"50ms\"\n", nil, 7, "thresholds.p99", `write it as p99 = "< 50ms"`},
		// A latency without a unit.
		{"threshold no unit", searchBase + "[[stage]]\nrate = \"1/s\"\n[thresholds]\np99 = \"< 50\"\n", nil, 7, "thresholds.p99", "has no unit"},
		// A stage the plan does not have.
		{"threshold stage out of range", searchBase + "[[stage]]\nrate = \"1/s\"\n[thresholds.stage.3]\nrps = \"> 1\"\n", nil, 6, "thresholds.stage.3", "the plan has 1 stage"},
		// A stage that is no number.
		{"threshold stage name", searchBase + "[[stage]]\nrate = \"1/s\"\n[thresholds.stage.warmup]\nrps = \"> 1\"\n", nil, 6, "thresholds.stage.warmup", "is not a stage number"},
		// A typo inside a stage's thresholds points at its line.
		{"threshold stage typo", searchBase + "[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n[[stage]]\nrate = \"2/s\"\n[thresholds.stage.2]\nrpss = \"> 1\"\n", nil, 10, "thresholds.stage.2.rpss", `did you mean "rps"?`},
		// A number where a condition belongs.
		{"threshold number", searchBase + "[[stage]]\nrate = \"1/s\"\n[thresholds]\nrps = 950\n", nil, 7, "thresholds.rps", "a condition in quotes"},
	})
}

// thresholdsSrc has conditions on the whole run, on a stage, on the answers compared, and on
// one target and one of its stages.
const thresholdsSrc = searchBase + `[[stage]]
rate = "100/s"
duration = "5s"
[[stage]]
rate = "200/s"
[thresholds]
p99 = "< 50ms"
limited = ["< 1%", ">= 0"]
answers_mismatch = "== 0"
[thresholds.stage.2]
rps = "> 190"
[thresholds.target.erigon]
p99 = "< 80ms"
[thresholds.target.erigon.stage.2]
rps = "> 190"
`

// TestThresholdsLoad: every condition is read with its stage, target and line, in file order.
func TestThresholdsLoad(t *testing.T) {
	var got []string
	for _, th := range mustLoad(t, thresholdsSrc).Thresholds {
		got = append(got, th.Label()+" "+th.Condition+" @"+th.Where)
	}
	want := []string{"p99 < 50ms @t.toml:10", "limited < 1% @t.toml:11", "limited >= 0 @t.toml:11", "answers_mismatch == 0 @t.toml:12",
		"stage 2 rps > 190 @t.toml:14", "erigon: p99 < 80ms @t.toml:16", "erigon: stage 2 rps > 190 @t.toml:18"} // in file order
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("thresholds:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
