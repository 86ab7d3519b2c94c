package report

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// chainTable is what the chain's head did per stage, for a run that followed one: the head
// at the stage's end, how far it moved and at what pace (a node that falls behind under load
// moves slower than its chain), and its largest lag behind the reference node. Left out when
// the run followed no head.
func chainTable(s *engine.Snapshot) *textfmt.Table {
	t := textfmt.NewTable("rrrrr", "#", "head", "advance", "per min", "max lag")
	c := s.Chain
	if c == nil {
		return t
	}
	unit := runtext.HeadUnit(c.Name)
	t.Caption = fmt.Sprintf("Chain head (%s: %s every %s, apart from the load)", c.Name, c.Name.HeadMethod(),
		textfmt.Seconds(c.HeadEveryS))
	t.Title, t.Empty = "Chain head", "never read during the run"
	for i, h := range engine.StageHeads(s) {
		if !h.Known {
			continue
		}
		lag := "-"
		if h.HasLag {
			lag = textfmt.Int(h.MaxLag)
		}
		// The pace is over the time the stage was active, as its rps is.
		pace := "-"
		if secs := s.Stages[i].Summary.DurationS; secs > 0 {
			pace = textfmt.Sig(float64(h.Advance)*60/secs, 3, 1)
		}
		t.Add(textfmt.Int(int64(i+1)), runtext.HeadNumber(h.Last), fmt.Sprintf("%+d", h.Advance), pace, lag)
	}
	notes := []string{fmt.Sprintf("from head %s at the start; in %s; max lag behind the reference (negative: ahead)", runtext.HeadNumber(c.HeadStart), unit),
		"reads: target " + readsText(c.Target)}
	if c.Ref != nil {
		notes = append(notes, "reference "+c.Ref.URL+" "+readsText(*c.Ref))
	}
	t.Note = strings.Join(notes, "; ")
	return t
}

// readsText is a node's head reads: "120 (2 failed, last: HTTP 429 Too Many Requests)".
func readsText(n engine.NodeHead) string {
	if n.Failures == 0 {
		return fmt.Sprintf("%d (none failed)", n.Reads)
	}
	return fmt.Sprintf("%d (%d failed, last: %s)", n.Reads, n.Failures, textfmt.OneLine(n.LastError))
}
