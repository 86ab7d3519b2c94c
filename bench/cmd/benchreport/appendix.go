package main

import (
	"fmt"
	"strings"
)

// problems lists runs whose tool failed or whose output could not be read: their figures are in
// the tables above only where they could be measured.
func (p *report) problems() {
	var lines []string
	for _, r := range p.d.Runs {
		var why []string
		if r.RC != 0 {
			why = append(why, fmt.Sprintf("exit status %d", r.RC))
		}
		if r.Out.Err != "" {
			why = append(why, "output not read: "+r.Out.Err)
		}
		if r.Served == 0 {
			why = append(why, "the target served nothing")
		}
		if len(why) > 0 {
			lines = append(lines, fmt.Sprintf("- %s: %s", r.ID, strings.Join(why, "; ")))
		}
	}
	if len(lines) == 0 {
		return
	}
	p.pf("## Runs with problems\n\n%s\n\n", strings.Join(lines, "\n"))
}

func (p *report) gobench() {
	if p.d.GoBench == "" {
		return
	}
	p.pf("## Go micro-benchmarks\n\n`go test -run '^$' -bench . -benchmem ./engine/` (not pinned; same machine, after the runs):\n\n```\n%s\n```\n\n", p.d.GoBench)
}

// commands shows the exact command of every case and tool (first repetition; scenario 3: its
// lowest rate), with the target's.
func (p *report) commands() {
	p.pf("## Exact commands\n\n")
	p.pf("Paths are relative to the repository; `$RUN` is the run's raw folder (bench/.runs/<time>/, git-ignored). " +
		"Each tester runs as `taskset -c 1 /usr/bin/time -f '%%U %%S %%M %%e' -o $RUN/…/time.txt timeout -k 5 <seconds+30> <command>`; " +
		"vegeta's results are read afterwards with `vegeta report -type=json`. The dashboard run of scenario 7 runs the same way inside " +
		"`tmux new-session -d -x 80 -y 24` (with `timeout --foreground`).\n\n```\n")
	port := p.d.Env["port"]
	for _, scen := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
		for _, cs := range p.cases(scen) {
			var first *Run
			for _, t := range p.tools(scen, cs) {
				rs := p.runs(scen, cs, t)
				if len(rs) == 0 {
					continue
				}
				r := rs[0]
				for _, x := range rs {
					if x.Rep < r.Rep {
						r = x
					}
				}
				if first == nil {
					first = r
					p.pf("%s\n", strings.TrimSpace(fmt.Sprintf("# scenario %s, %s — target: taskset -c 0 bench/.tools/target --listen 127.0.0.1:%s %s", scen, cs, port, r.TargetFlags)))
				}
				p.pf("%s\n", strings.TrimSpace(p.clean(r.Cmd)))
			}
			if scen == "3" {
				break // the ladder's other steps differ only in the rate
			}
		}
	}
	p.pf("```\n")
}

func (p *report) clean(cmd string) string {
	if p.dir != "" {
		cmd = strings.ReplaceAll(cmd, strings.TrimSuffix(p.dir, "/")+"/", "$RUN/")
	}
	if p.root != "" {
		cmd = strings.ReplaceAll(cmd, strings.TrimSuffix(p.root, "/")+"/", "")
	}
	return cmd
}
