package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Run is one tester run as bench/run.sh left it: what was asked, what /usr/bin/time measured,
// what the target counted and what the tool itself reported.
type Run struct {
	ID          string
	Scenario    string
	Case        string
	Tool        string
	Rep         int
	Mode        string
	Rate        float64 // requests per second asked for; 0 in closed loop
	Conns       int
	Seconds     float64
	TargetFlags string
	Cmd         string
	RC          int

	CPU       float64 // user+sys seconds of the tester
	RSSKB     float64 // peak resident set, KiB
	Wall      float64 // seconds
	TargetCPU float64 // seconds the target spent during the run

	Served    float64 // requests the target counted
	Served200 float64
	Served429 float64

	Out ToolResult // what the tool's own output says

	RSS []RSSPoint // the tester's resident set over time (scenario 8's soak only)
}

// RSSPoint is one sample of the tester's resident set.
type RSSPoint struct {
	T  float64 // seconds since the run started
	KB float64
}

// ToolResult is what one tool printed about its run.
type ToolResult struct {
	Completed float64 // responses the tool counted
	RPS       float64 // the rate the tool reported
	P50, P99  float64 // milliseconds
	HasLat    bool
	Err       string // why the output could not be read, if it could not
}

// ServedRate is the target's count over the planned run time: the same yardstick for every tool.
func (r *Run) ServedRate() float64 { return r.Served / r.Seconds }

// CPUPerM is tester CPU seconds per million requests the target served.
func (r *Run) CPUPerM() float64 {
	if r.Served == 0 {
		return 0
	}
	return r.CPU / r.Served * 1e6
}

// Held reports whether the run delivered its fixed rate within 1 %.
func (r *Run) Held() bool {
	want := r.Rate * r.Seconds
	return want > 0 && r.Served >= 0.99*want && r.Served <= 1.01*want
}

// Env is env.txt: facts about the machine, the tools and the suite's settings.
type Env map[string]string

// Data is one suite run: its facts, its runs, and the Go micro-benchmark output.
type Data struct {
	Env     Env
	Runs    []*Run
	GoBench string
}

func load(dir string) (*Data, error) {
	env, err := readKV(filepath.Join(dir, "env.txt"))
	if err != nil {
		return nil, err
	}
	d := &Data{Env: Env(env)}
	if b, err := os.ReadFile(filepath.Join(dir, "gobench.txt")); err == nil {
		d.GoBench = strings.TrimSpace(string(b))
	}
	entries, err := os.ReadDir(filepath.Join(dir, "runs"))
	if err != nil {
		return nil, fmt.Errorf("reading the runs of %s: %w", dir, err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		r, err := loadRun(filepath.Join(dir, "runs", e.Name()))
		if err != nil {
			return nil, err
		}
		d.Runs = append(d.Runs, r)
	}
	sort.SliceStable(d.Runs, func(i, j int) bool { return d.Runs[i].ID < d.Runs[j].ID })
	return d, nil
}

func loadRun(dir string) (*Run, error) {
	m, err := readKV(filepath.Join(dir, "meta"))
	if err != nil {
		return nil, err
	}
	r := &Run{
		ID: filepath.Base(dir), Scenario: m["scenario"], Case: m["case"], Tool: m["tool"],
		Mode: m["mode"], TargetFlags: m["target_flags"], Cmd: m["cmd"],
	}
	r.Rep, _ = strconv.Atoi(m["rep"])
	r.Rate, _ = strconv.ParseFloat(m["rate"], 64)
	r.Conns, _ = strconv.Atoi(m["conns"])
	r.Seconds, _ = strconv.ParseFloat(m["seconds"], 64)
	r.RC, _ = strconv.Atoi(m["rc"])
	r.TargetCPU, _ = strconv.ParseFloat(m["target_cpu"], 64)
	if b, err := os.ReadFile(filepath.Join(dir, "time.txt")); err == nil {
		r.CPU, r.RSSKB, r.Wall = parseTime(string(b))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "stats.json")); err == nil {
		var s struct {
			Requests float64            `json:"requests"`
			Status   map[string]float64 `json:"status"`
		}
		if json.Unmarshal(b, &s) == nil {
			r.Served, r.Served200, r.Served429 = s.Requests, s.Status["200"], s.Status["429"]
		}
	}
	r.Out = parseTool(r.Tool, dir)
	if b, err := os.ReadFile(filepath.Join(dir, "rss.txt")); err == nil {
		r.RSS = parseRSS(string(b))
	}
	return r, nil
}

// parseTime reads the last line of `/usr/bin/time -f '%U %S %M %e'` (earlier lines may be a
// "Command exited with non-zero status" note).
func parseTime(s string) (cpu, rssKB, wall float64) {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 4 {
		return 0, 0, 0
	}
	u, _ := strconv.ParseFloat(f[0], 64)
	sy, _ := strconv.ParseFloat(f[1], 64)
	rssKB, _ = strconv.ParseFloat(f[2], 64)
	wall, _ = strconv.ParseFloat(f[3], 64)
	return u + sy, rssKB, wall
}

// readKV reads key=value lines; the value runs to the end of the line.
func readKV(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			m[k] = v
		}
	}
	return m, sc.Err()
}

// parseRSS reads bench/run.sh's rss.txt: "seconds KiB" a line. Lines that do not parse are
// skipped (a sample cut short as the process exited).
func parseRSS(s string) []RSSPoint {
	var out []RSSPoint
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		t, err1 := strconv.ParseFloat(f[0], 64)
		kb, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil || kb <= 0 {
			continue
		}
		out = append(out, RSSPoint{T: t, KB: kb})
	}
	return out
}
