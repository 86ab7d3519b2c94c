package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// parseTool reads a tool's own account of its run from the files run.sh kept in dir.
func parseTool(tool, dir string) ToolResult {
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	var res ToolResult
	var err error
	switch tool {
	case "rpcstress", "rpcstress-headless", "rpcstress-dashboard", "rpcstress-tick10", "rpcstress-workers":
		res, err = parseRpcstress(read("snapshot.json"))
	case "wrk":
		res, err = parseWrk(read("out.txt"))
	case "hey":
		res, err = parseHey(read("out.txt"))
	case "bombardier":
		res, err = parseBombardier(read("out.txt"))
	case "vegeta":
		res, err = parseVegeta(read("report.json"))
	case "oha", "oha-corrected":
		res, err = parseOha(read("out.txt"))
	case "floor-loop", "floor-lazy", "floor-goroutines", "floor-bare":
		res, err = parseFloor(read("out.txt"))
	default:
		err = fmt.Errorf("no parser for %q", tool)
	}
	if err != nil {
		res.Err = err.Error()
	}
	return res
}

// parseRpcstress reads the totals of an rpcstress snapshot (schema rpcstress.snapshot/v1).
func parseRpcstress(s string) (ToolResult, error) {
	var snap struct {
		Totals struct {
			Completed float64 `json:"completed"`
			RPS       float64 `json:"rps"`
			Latency   struct {
				P50 *float64 `json:"p50"`
				P99 *float64 `json:"p99"`
			} `json:"latency_ms"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(s), &snap); err != nil {
		return ToolResult{}, fmt.Errorf("snapshot: %w", err)
	}
	t := snap.Totals
	r := ToolResult{Completed: t.Completed, RPS: t.RPS}
	if t.Latency.P50 != nil && t.Latency.P99 != nil {
		r.P50, r.P99, r.HasLat = *t.Latency.P50, *t.Latency.P99, true
	}
	return r, nil
}

var (
	wrkCount   = regexp.MustCompile(`(?m)^\s*(\d+) requests in ([\d.]+)(us|ms|s|m)`)
	wrkRPS     = regexp.MustCompile(`(?m)^Requests/sec:\s+([\d.]+)`)
	wrkPercent = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([\d.]+)(us|ms|s|m|h)\s*$`)
)

// parseWrk reads wrk's text output (run with --latency for the percentile lines).
func parseWrk(s string) (ToolResult, error) {
	var r ToolResult
	m := wrkCount.FindStringSubmatch(s)
	if m == nil {
		return r, fmt.Errorf("wrk: no %q line", "N requests in")
	}
	r.Completed, _ = strconv.ParseFloat(m[1], 64)
	if m := wrkRPS.FindStringSubmatch(s); m != nil {
		r.RPS, _ = strconv.ParseFloat(m[1], 64)
	}
	got := 0
	for _, m := range wrkPercent.FindAllStringSubmatch(s, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		ms := v * unitMS(m[3])
		if m[1] == "50" {
			r.P50 = ms
		} else {
			r.P99 = ms
		}
		got++
	}
	r.HasLat = got == 2
	return r, nil
}

// unitMS is how many milliseconds one of wrk's time units is.
func unitMS(u string) float64 {
	switch u {
	case "us":
		return 1e-3
	case "ms":
		return 1
	case "s":
		return 1e3
	case "m":
		return 60e3
	case "h":
		return 3600e3
	}
	return 0
}

var (
	heyRPS     = regexp.MustCompile(`(?m)^\s*Requests/sec:\s+([\d.]+)`)
	heyPercent = regexp.MustCompile(`(?m)^\s+(50|99)% in ([\d.]+) secs`)
	heyStatus  = regexp.MustCompile(`(?m)^\s+\[\d+\]\s+(\d+) responses`)
	heyErrors  = regexp.MustCompile(`(?m)^\s+\[(\d+)\]\s+\S`)
)

// parseHey reads hey's text summary. Its percentiles have 0.1 ms resolution.
func parseHey(s string) (ToolResult, error) {
	var r ToolResult
	m := heyRPS.FindStringSubmatch(s)
	if m == nil {
		return r, fmt.Errorf("hey: no Requests/sec line")
	}
	r.RPS, _ = strconv.ParseFloat(m[1], 64)
	for _, m := range heyStatus.FindAllStringSubmatch(s, -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		r.Completed += v
	}
	if i := strings.Index(s, "Error distribution:"); i >= 0 {
		for _, m := range heyErrors.FindAllStringSubmatch(s[i:], -1) {
			v, _ := strconv.ParseFloat(m[1], 64)
			r.Completed += v
		}
	}
	got := 0
	for _, m := range heyPercent.FindAllStringSubmatch(s, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		if m[1] == "50" {
			r.P50 = v * 1e3
		} else {
			r.P99 = v * 1e3
		}
		got++
	}
	r.HasLat = got == 2
	return r, nil
}

// parseBombardier reads bombardier's `-o json -p r -l` result (latencies in microseconds).
func parseBombardier(s string) (ToolResult, error) {
	var out struct {
		Result struct {
			Req1xx, Req2xx, Req3xx, Req4xx, Req5xx, Others float64
			TimeTakenSeconds                               float64
			Latency                                        struct {
				Percentiles map[string]float64 `json:"percentiles"`
			} `json:"latency"`
		} `json:"result"`
	}
	i := strings.Index(s, "{")
	if i < 0 {
		return ToolResult{}, fmt.Errorf("bombardier: no JSON in the output")
	}
	if err := json.NewDecoder(strings.NewReader(s[i:])).Decode(&out); err != nil {
		return ToolResult{}, fmt.Errorf("bombardier: %w", err)
	}
	res := out.Result
	r := ToolResult{Completed: res.Req1xx + res.Req2xx + res.Req3xx + res.Req4xx + res.Req5xx + res.Others}
	if res.TimeTakenSeconds > 0 {
		r.RPS = r.Completed / res.TimeTakenSeconds
	}
	p50, ok50 := res.Latency.Percentiles["50"]
	p99, ok99 := res.Latency.Percentiles["99"]
	if ok50 && ok99 {
		r.P50, r.P99, r.HasLat = p50/1e3, p99/1e3, true
	}
	return r, nil
}

// parseVegeta reads `vegeta report -type=json` (latencies in nanoseconds).
func parseVegeta(s string) (ToolResult, error) {
	var out struct {
		Latencies map[string]float64 `json:"latencies"`
		Requests  float64            `json:"requests"`
		Duration  float64            `json:"duration"`
		Wait      float64            `json:"wait"`
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return ToolResult{}, fmt.Errorf("vegeta report: %w", err)
	}
	r := ToolResult{Completed: out.Requests}
	if d := out.Duration + out.Wait; d > 0 {
		r.RPS = out.Requests / (d / 1e9)
	}
	if out.Requests > 0 {
		r.P50, r.P99, r.HasLat = out.Latencies["50th"]/1e6, out.Latencies["99th"]/1e6, true
	}
	return r, nil
}

// parseOha reads `oha --output-format json` (times in seconds).
func parseOha(s string) (ToolResult, error) {
	var out struct {
		Summary struct {
			Total          float64 `json:"total"`
			RequestsPerSec float64 `json:"requestsPerSec"`
		} `json:"summary"`
		LatencyPercentiles map[string]*float64 `json:"latencyPercentiles"`
		StatusCodes        map[string]float64  `json:"statusCodeDistribution"`
		Errors             map[string]float64  `json:"errorDistribution"`
	}
	i := strings.Index(s, "{")
	if i < 0 {
		return ToolResult{}, fmt.Errorf("oha: no JSON in the output")
	}
	if err := json.NewDecoder(strings.NewReader(s[i:])).Decode(&out); err != nil {
		return ToolResult{}, fmt.Errorf("oha: %w", err)
	}
	r := ToolResult{RPS: out.Summary.RequestsPerSec}
	for _, n := range out.StatusCodes {
		r.Completed += n
	}
	for _, n := range out.Errors {
		r.Completed += n
	}
	p50, p99 := out.LatencyPercentiles["p50"], out.LatencyPercentiles["p99"]
	if p50 != nil && p99 != nil {
		r.P50, r.P99, r.HasLat = *p50*1e3, *p99*1e3, true
	}
	return r, nil
}

// floorLine is bench/cmd/floor's one line of results; p50 and p99 are there with -work only.
var floorLine = regexp.MustCompile(`answered (\d+) .* in ([\d.]+) s(?: .*p50 ([\d.]+) ms p99 ([\d.]+) ms)?`)

// parseFloor reads bench/cmd/floor's account of its run.
func parseFloor(s string) (ToolResult, error) {
	m := floorLine.FindStringSubmatch(s)
	if m == nil {
		return ToolResult{}, fmt.Errorf("no result line in floor's output")
	}
	var r ToolResult
	r.Completed, _ = strconv.ParseFloat(m[1], 64)
	if secs, _ := strconv.ParseFloat(m[2], 64); secs > 0 {
		r.RPS = r.Completed / secs
	}
	if m[3] != "" {
		r.P50, _ = strconv.ParseFloat(m[3], 64)
		r.P99, _ = strconv.ParseFloat(m[4], 64)
		r.HasLat = true
	}
	return r, nil
}
