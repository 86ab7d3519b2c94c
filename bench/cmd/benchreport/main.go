// Command benchreport turns the raw files of one bench/run.sh run into bench/RESULTS.md: it reads
// each tool's own output (rpcstress snapshots, wrk and hey text, bombardier, oha and vegeta JSON),
// /usr/bin/time's CPU and peak RSS, and the target's own counts, and writes medians with
// [min–max] per scenario, the results against issue 7's goals, the Go micro-benchmarks and the
// exact commands.
//
//	benchreport -dir bench/.runs/20261123T101500Z -root . -o bench/RESULTS.md
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", "", "the raw folder of one run of bench/run.sh (bench/.runs/<time>)")
	root := flag.String("root", "", "the repository root, stripped from paths in the commands shown")
	out := flag.String("o", "bench/RESULTS.md", "where to write the report (- for standard output)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "benchreport: -dir is required: the folder bench/run.sh wrote (bench/.runs/<time>)")
		os.Exit(2)
	}
	d, err := load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	abs, _ := filepath.Abs(*dir)
	p := &report{d: d, dir: abs, root: *root}
	text := p.render()
	if *out == "-" {
		fmt.Print(text)
		return
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}
