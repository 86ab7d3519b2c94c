package main

import (
	"fmt"
	"sort"
)

type held struct {
	rate, share, cpuM float64
	missed            float64 // the first rate not held, 0 if none
	missedShare       float64
}

// searchResults reads scenario 3: per tool the highest ladder rate held within 1 %, and the
// first one missed (its best attempt).
func (p *report) searchResults() map[string]held {
	out := map[string]held{}
	for _, t := range p.tools("3", "") {
		rates := map[float64][]*Run{}
		for _, r := range p.runs("3", "", t) {
			rates[r.Rate] = append(rates[r.Rate], r)
		}
		var ladder []float64
		for r := range rates {
			ladder = append(ladder, r)
		}
		sort.Float64s(ladder)
		h := held{}
		for _, rate := range ladder {
			var best *Run
			for _, r := range rates[rate] {
				if r.Held() {
					best = r
					break
				}
				if best == nil || r.Served > best.Served {
					best = r
				}
			}
			if best.Held() {
				h.rate, h.share, h.cpuM = rate, 100*best.Served/(rate*best.Seconds), best.CPUPerM()
				continue
			}
			h.missed, h.missedShare = rate, 100*best.Served/(rate*best.Seconds)
			break
		}
		out[t] = h
	}
	return out
}

func (p *report) scenario3() {
	res := p.searchResults()
	if len(res) == 0 {
		return
	}
	secs := fNum(p.firstRun("3", "").Seconds) // a result means a run
	p.pf("## 3. Highest fixed rate held within 1 %%, one core, 50 connections\n\n")
	p.pf("A ladder of rates, %s s per step; a tool holds a step when the target served within 1 %% of rate × time. "+
		"A miss is retried once (the machine is noisy); the second miss ends the tool's climb. One search, not repeated.\n\n", secs)
	var rows [][]string
	for _, t := range p.tools("3", "") {
		h := res[t]
		row := []string{t, "–", "–", "–", "–"}
		if h.rate > 0 {
			row[1], row[2], row[3] = fInt(h.rate), fmt.Sprintf("%.2f %%", h.share), fSig(h.cpuM)
		}
		if h.missed > 0 {
			row[4] = fmt.Sprintf("%s/s (served %.1f %%)", fInt(h.missed), h.missedShare)
		} else {
			row[4] = "none: the ladder ended"
		}
		rows = append(rows, row)
	}
	p.table([]string{"tool", "highest rate held (req/s)", "served there", "CPU s/1M there", "first rate missed"}, rows)
}
