package runtext

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// SubParts are one subscription's figures as the dashboard and the headless lines show them,
// most telling first, so a narrow line drops from the end: how many hold a subscription, the
// last second's notifications and fan-out spread p99, the run's trouble (gaps, repeats,
// drops, refusals, failed dials) where there is any, then the last second's lag p99 and
// notifications per subscriber. last is the subscription's last complete second, nil before
// one.
func SubParts(s *engine.SubStats, last *engine.SubRow) []string {
	parts := []string{textfmt.Int(int64(s.Subscribed)) + "/" + textfmt.Int(int64(s.Subscribers)) + " held"}
	if last == nil {
		return append(parts, SubTrouble(s)...)
	}
	parts = append(parts, textfmt.PerSec(float64(last.Notifications)))
	if last.SpreadP99 > 0 {
		parts = append(parts, "spread p99 "+textfmt.Ms(last.SpreadP99)+" ms")
	}
	parts = append(parts, SubTrouble(s)...)
	if last.LagP99 > 0 {
		parts = append(parts, "lag p99 "+textfmt.Ms(last.LagP99)+" ms")
	}
	return append(parts, textfmt.TrimZeros(textfmt.Sig(last.PerSubscriber, 3, 2))+"/s each")
}

// SubTrouble is what went wrong with a subscription over the run, each as "gaps 3"; none when
// nothing did (a newHeads subscription always shows its gaps, 0 included: checked and clean).
func SubTrouble(s *engine.SubStats) []string {
	var out []string
	if s.Gaps != nil {
		out = append(out, "gaps "+textfmt.Int(*s.Gaps))
		if *s.Duplicates > 0 {
			out = append(out, "repeats "+textfmt.Int(*s.Duplicates))
		}
	}
	for _, c := range []struct {
		word string
		n    int64
	}{{"drops", textfmt.SumCounts(s.Disconnects)}, {"refused", textfmt.SumCounts(s.Refused)}, {"dial failed", textfmt.SumCounts(s.DialFailed)}} {
		if c.n > 0 {
			out = append(out, c.word+" "+textfmt.Int(c.n))
		}
	}
	return out
}

// LastSub is subscription i's row of the timeline row r, or nil.
func LastSub(r *engine.Row, i int) *engine.SubRow {
	if r == nil || i >= len(r.Subs) {
		return nil
	}
	return &r.Subs[i]
}
