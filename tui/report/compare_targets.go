package report

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// Runs with several targets compare target by target: each target's numbers in one run
// against the same target's in the others, matched by name. A run of a single target has no
// name for it: it pairs with the target of the same URL in the other runs (yesterday's run
// against geth alone, today's of geth and erigon side by side), or stands on its own. Each run
// keeps its letter in every block, whichever runs have the target.

// ErrNothingToCompare is what a comparison says when no target is in two of the runs.
var ErrNothingToCompare = errors.New("nothing to compare")

// hasTargets says whether any of the runs sent to several targets.
func hasTargets(runs []CompareRun) bool {
	return slices.ContainsFunc(runs, func(r CompareRun) bool { return len(r.Snapshot.Targets) > 0 })
}

// targetGroup is one target across the runs: its name (a URL, for a single target no other
// run names) and each run's view of it, labelled with the run's letter.
type targetGroup struct {
	name string
	runs []CompareRun
	// byURL lists the runs of a single target paired here by its URL.
	byURL []string
}

// groupTargets puts each target of each run with the same target of the others: by name, then
// a single-target run by its URL.
func groupTargets(runs []CompareRun) []*targetGroup {
	var groups []*targetGroup
	find := func(match func(*targetGroup) bool) *targetGroup {
		if i := slices.IndexFunc(groups, match); i >= 0 {
			return groups[i]
		}
		return nil
	}
	urls := map[*targetGroup]string{}
	for i, r := range runs {
		for k := range r.Snapshot.Targets {
			name := r.Snapshot.Targets[k].Name
			g := find(func(g *targetGroup) bool { return g.name == name })
			if g == nil {
				g = &targetGroup{name: name}
				groups, urls[g] = append(groups, g), r.Snapshot.Targets[k].Target
			}
			g.runs = append(g.runs, CompareRun{File: r.File, Label: r.label(i), Snapshot: r.Snapshot.TargetView(k)})
		}
	}
	for i, r := range runs {
		if len(r.Snapshot.Targets) > 0 {
			continue
		}
		url := r.Snapshot.Target
		g := find(func(g *targetGroup) bool { return urls[g] == url })
		if g == nil {
			g = &targetGroup{name: url}
			groups, urls[g] = append(groups, g), url
		} else {
			g.byURL = append(g.byURL, r.label(i))
		}
		g.runs = append(g.runs, CompareRun{File: r.File, Label: r.label(i), Snapshot: r.Snapshot})
	}
	order := labels(runs)
	for _, g := range groups { // each block's runs in the runs' order: its first is its reference
		slices.SortStableFunc(g.runs, func(a, b CompareRun) int {
			return slices.Index(order, a.Label) - slices.Index(order, b.Label)
		})
	}
	return groups
}

// writeCompareByTarget writes runs of which some sent to several targets: the runs, then a
// block per target that two runs or more have, each against the first run that has it, then
// the targets only one run has.
func writeCompareByTarget(ew *textfmt.Writer, runs []CompareRun) error {
	groups := groupTargets(runs)
	var alone []string
	compared := 0
	for _, g := range groups {
		if len(g.runs) > 1 {
			compared++
			continue
		}
		others := slices.DeleteFunc(labels(runs), func(l string) bool { return l == g.runs[0].Label })
		alone = append(alone, fmt.Sprintf("%s: only in %s (%s sent nothing to it)", safetext.Line(g.name),
			g.runs[0].Label, strings.Join(others, ", ")))
	}
	if compared == 0 {
		return fmt.Errorf("%w: no target is in two of the runs (%s); a run's targets compare by "+
			"name, a single target by its URL", ErrNothingToCompare, runsTargets(runs))
	}
	ew.Paragraph("", "  ", fmt.Sprintf("rpcstress compare: %d runs, target by target, deltas against the first run with each target", len(runs)))
	writeCompareRuns(ew, runs)
	for _, g := range groups {
		if len(g.runs) < 2 {
			continue
		}
		ew.Line("")
		head := "━━ Target " + safetext.Line(g.name) + ": " + strings.Join(labels(g.runs), " vs ")
		if len(g.byURL) > 0 {
			head += " (" + strings.Join(g.byURL, ", ") + " by its URL: a run of a single target)"
		}
		ew.Paragraph("", "   ", head)
		writeComparison(ew, NewComparison(g.runs))
	}
	if len(alone) > 0 {
		ew.Line("")
		ew.Line("Not compared (in one run only)")
		for _, l := range alone {
			ew.Line("  " + l)
		}
	}
	writeCompareLegend(ew, "the first run of each target's block", runs)
	return nil
}

// runsTargets says what each run sent to: "A: geth, erigon; B: http://127.0.0.1:8545".
func runsTargets(runs []CompareRun) string {
	parts := make([]string, len(runs))
	for i, r := range runs {
		names := r.Snapshot.TargetNames()
		if len(names) == 0 {
			names = []string{r.Snapshot.Target}
		}
		parts[i] = r.label(i) + ": " + safetext.Line(strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ")
}

// WriteCompareTargets writes the targets of one run with several against each other: the
// first target is A, the reference, the second B, and so on, stage by stage as WriteCompare
// compares runs (the same schedule was sent to each, so every stage pairs), with how their
// answers compared. Width as WriteCompare's.
func WriteCompareTargets(w io.Writer, run CompareRun, width int) error {
	s := run.Snapshot
	if s == nil || len(s.Targets) < 2 {
		return errors.New("write compare: give two runs, or one run of several targets")
	}
	runs := make([]CompareRun, len(s.Targets))
	ew := textfmt.NewWriter(w, width)
	ew.Paragraph("", "  ", fmt.Sprintf("rpcstress compare: the %d targets of %s, deltas against A", len(runs),
		orDash(safetext.Line(run.File))))
	ew.Paragraph("  ", "  ", fmt.Sprintf("%s, started %s, %s, %d stages", runtext.ProfileName(s.Profile),
		formatTime(s.StartedAt), orDash(s.EndReason), len(s.Stages)))
	if note := runNote(s); note != "" {
		ew.Paragraph("  ! ", "    ", note)
	}
	named := textfmt.NewTable("lll").GiveWay(2, true) // letter, name, URL: the URLs lined up
	for i := range s.Targets {
		runs[i] = CompareRun{Snapshot: s.TargetView(i)}
		named.Add(runLabel(i), s.Targets[i].Name, s.Targets[i].Target)
	}
	ew.Table(named, "  ")
	if line := answersLine(s.Answers); line != "" {
		ew.Line("")
		ew.Paragraph("", "  ", line)
	}
	writeComparison(ew, NewComparison(runs))
	writeCompareLegend(ew, "target A", runs)
	if ew.Err() != nil {
		return fmt.Errorf("write compare: %w", ew.Err())
	}
	return nil
}

// answersLine sums up how the targets' answers compared: "answers: 35 of 1200 requests
// differed (30 results, 5 an error against a result); rpcstress report shows them"; "" when
// the run compared none.
func answersLine(res *answers.Result) string {
	if res == nil {
		return ""
	}
	t := res.Totals
	return fmt.Sprintf("answers: %d of %d requests compared differed (%d results, %d an error against a result; "+
		"%d head skew, %d incomplete): rpcstress report shows the kept differences", disagreed(t), t.Compared,
		t.Mismatch, t.ErrorVsResult, t.HeadSkew, t.Incomplete)
}
