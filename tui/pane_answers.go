package tui

import (
	"cmp"
	"slices"
	"strings"

	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// answersPane counts how the targets' answers to the same requests compared (compare_answers):
// match, mismatch, error vs result (seed 001's branch that answered every call with an error
// shows at once), head skew (the nodes were at different heads: not comparable), and the
// requests that differ most. A line or two in the compact layout; boxed in the wide one, with
// a line per pair of targets when there are more than two. Absent when answers are not
// compared.
type answersPane struct {
	paneBase
}

// maxWorst is how many of the requests that differ most are named.
const maxWorst = 3

// result is the comparison shown, nil when there is none.
func (p *answersPane) result() *answers.Result {
	if p.c.sideBySide() == nil {
		return nil
	}
	return p.c.st.Answers
}

// Lines: the counts (wrapped), then, with room, the pairs (wide) and the worst requests.
func (p *answersPane) Lines() (least, most int) {
	res := p.result()
	if res == nil {
		return 0, 0
	}
	least = p.titleLines() + len(p.countLines("answers", res.Totals, true))
	most = least
	if p.wide && len(res.Pairs) > 1 {
		most += len(res.Pairs)
	}
	if len(worstRequests(res)) > 0 {
		most++
	}
	return least, most
}

func (p *answersPane) View() string {
	res := p.result()
	if res == nil {
		return ""
	}
	s := p.c.styles
	note := "  (run)"
	if len(res.Pairs) > 1 {
		note = "  (run; A–B: a pair of targets)"
	}
	lines := p.title("Answers compared", note)
	lines = append(lines, p.countLines("answers", res.Totals, true)...)
	// The pairs come before the worst requests but give way to them: which requests differ is
	// what to look at first.
	worst := worstRequests(res)
	pairRoom := p.height - len(lines)
	if len(worst) > 0 {
		pairRoom--
	}
	if p.wide && len(res.Pairs) > 1 {
		for _, pc := range res.Pairs[:min(len(res.Pairs), max(pairRoom, 0))] {
			label := pairLabel(res.Targets, pc)
			lines = append(lines, textfmt.Truncate(strings.Join(p.countParts(label, pc.Counts, false), "  "), p.width))
		}
	}
	if len(worst) > 0 {
		parts := make([]string, len(worst))
		for i, name := range worst {
			c := res.ByRequest[name]
			parts[i] = safetext.Line(name) + " " + s.Bad.Render(textfmt.Int(c.Mismatch+c.ErrorVsResult))
		}
		lines = append(lines, textfmt.Truncate(p.c.label("differ", labelWidth)+strings.Join(parts, " · "), p.width))
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// countLines: "answers   match 6938  mismatch 12  error vs result 0  head skew 40", wrapped
// to the width under the label. every keeps the kinds at 0 (the totals: "mismatch 0" is the
// news); else only match and the kinds that happened show (a pair's line). Incomplete (a
// target gave nothing to compare) shows only when there were.
func (p *answersPane) countLines(label string, c answers.Counts, every bool) []string {
	return wrapIndented(p.countParts(label, c, every), "  ", labelWidth, p.width)
}

// countParts are countLines' parts: the label, then a part per kind shown.
func (p *answersPane) countParts(label string, c answers.Counts, every bool) []string {
	s := p.c.styles
	parts := []string{p.c.label(textfmt.Truncate(label, labelWidth-3), labelWidth-2), "match " + textfmt.Int(c.Match)}
	for _, k := range []struct {
		name string
		n    int64
		loud bool
	}{{"mismatch", c.Mismatch, true}, {"error vs result", c.ErrorVsResult, true}, {"head skew", c.HeadSkew, false},
		{"incomplete", c.Incomplete, false}} {
		text := k.name + " " + textfmt.Int(k.n)
		switch {
		case k.n == 0 && (!every || k.name == "incomplete"):
			continue
		case k.n > 0 && k.loud:
			text = s.Bad.Render(text)
		}
		parts = append(parts, text)
	}
	return parts
}

// pairLabel is "A–B" for the pair's targets, by their place in the run.
func pairLabel(targets []string, pc answers.PairCounts) string {
	letter := func(name string) string {
		if i := slices.Index(targets, name); i >= 0 {
			return targetLetter(i)
		}
		return "?"
	}
	return letter(pc.A) + "–" + letter(pc.B)
}

// worstRequests are the requests whose answers differed (mismatch or error vs result), the
// most first, at most maxWorst.
func worstRequests(res *answers.Result) []string {
	bad := func(c answers.Counts) int64 { return c.Mismatch + c.ErrorVsResult }
	var names []string
	for name, c := range res.ByRequest {
		if bad(c) > 0 {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(bad(res.ByRequest[b]), bad(res.ByRequest[a])), strings.Compare(a, b))
	})
	return names[:min(len(names), maxWorst)]
}
