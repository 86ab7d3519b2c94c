package report

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// subsTables are the run's subscriptions: what they received and what went wrong, then their
// times. None when the run held no subscription.
func subsTables(s *engine.Snapshot) []*textfmt.Table {
	if len(s.Subscriptions) == 0 {
		return nil
	}
	return []*textfmt.Table{subsCountsTable(s.Subscriptions), subsTimesTable(s.Subscriptions)}
}

// heldText says what stage i did when it sent nothing but ran while the run held
// subscriptions (a stage of subscriptions alone): "held 200 subscribers, 1000 notifications",
// all subscriptions' as held at its end and received in its seconds (each one's is in the
// Subscriptions table); "" for any other stage.
func heldText(s *engine.Snapshot, i int) string {
	st := &s.Stages[i]
	if len(s.Subscriptions) == 0 || runtext.StageRan(st) || st.Summary.DurationS <= 0 {
		return ""
	}
	var last []engine.SubRow
	var notes int64
	for k := range s.Timeline {
		if r := &s.Timeline[k]; r.Stage == i && len(r.Subs) > 0 {
			last = r.Subs
			for _, sr := range r.Subs {
				notes += sr.Notifications
			}
		}
	}
	if last == nil {
		return ""
	}
	held := 0
	for _, sr := range last {
		held += sr.Subscribed
	}
	text := "held " + textfmt.Int(int64(held)) + " subscriber"
	if held != 1 {
		text += "s"
	}
	return text + ", " + textfmt.Int(notes) + " notifications"
}

// subsCountsTable: a row a subscription, how many held one at the end, the events and
// notifications received (per second, per subscriber, the fewest one subscriber got), and the
// gaps, repeats, drops and refusals; the notes name the refusals' messages and the classes.
func subsCountsTable(subs []engine.SubStats) *textfmt.Table {
	t := textfmt.NewTable("lrrrrrrrrr", "subscription", "held", "events", "notes", "/s", "each/s", "least", "gaps", "drops", "refused").GiveWay(0, true)
	t.Caption, t.Title = "Subscriptions (held at the end; notes: notifications)", "Subscriptions"
	var notes []string
	for i := range subs {
		s := &subs[i]
		gaps := "-"
		if s.Gaps != nil {
			gaps = textfmt.Int(*s.Gaps)
		}
		t.Add(s.Name, textfmt.Int(int64(s.Subscribed))+"/"+textfmt.Int(int64(s.Subscribers)), textfmt.Int(s.Events),
			textfmt.Int(s.Notifications), textfmt.RPS(s.Rate), textfmt.TrimZeros(textfmt.Sig(s.PerSubscriber, 3, 2)),
			textfmt.Int(s.LeastPerSubscriber), gaps, textfmt.Int(textfmt.SumCounts(s.Disconnects)), textfmt.Int(textfmt.SumCounts(s.Refused)))
		notes = append(notes, subNotes(s)...)
	}
	notes = append(notes, "gaps: newHeads numbers skipped within a subscription (- for other kinds); drops: "+
		"connections that ended under the run, each re-subscribed")
	t.Note = strings.Join(notes, "; ")
	return t
}

// subNotes say what a subscription's trouble was: where it went to, the refusals' codes and
// messages, the drops' and failed dials' classes, repeats and reorgs.
func subNotes(s *engine.SubStats) []string {
	out := []string{s.Name + ": " + s.Method + " " + s.Params + " at " + s.Target}
	for _, code := range textfmt.SortedByCount(s.Refused) {
		out = append(out, s.Name+" refused "+code+" ×"+textfmt.Int(s.Refused[code])+" "+s.RefusedMessages[code])
	}
	for _, what := range []struct {
		word   string
		counts map[string]int64
	}{{"dropped", s.Disconnects}, {"failed to dial", s.DialFailed}} {
		for _, class := range textfmt.SortedByCount(what.counts) {
			out = append(out, s.Name+" "+what.word+" "+class+" ×"+textfmt.Int(what.counts[class]))
		}
	}
	if s.Duplicates != nil && *s.Duplicates+*s.Reorgs > 0 {
		out = append(out, s.Name+" repeats "+textfmt.Int(*s.Duplicates)+", reorgs "+textfmt.Int(*s.Reorgs))
	}
	return out
}

// subsTimesTable: a row a subscription, the time to subscribe, the fan-out spread and the
// heads' lag behind their timestamps.
func subsTimesTable(subs []engine.SubStats) *textfmt.Table {
	t := textfmt.NewTable("lrrrrrrrr", "subscription", "sub p50", "p99", "spread p50", "p99", "max", "lag p50", "p99", "dial").GiveWay(0, true)
	t.Caption, t.Title = "Subscription times (ms)", "Subscription times"
	for i := range subs {
		s := &subs[i]
		lag50, lag99 := "-", "-"
		if s.Lag != nil {
			lag50, lag99 = textfmt.Ms(s.Lag.P50), textfmt.Ms(s.Lag.P99)
		}
		t.Add(s.Name, textfmt.Ms(s.Subscribe.P50), textfmt.Ms(s.Subscribe.P99), textfmt.Ms(s.Spread.P50),
			textfmt.Ms(s.Spread.P99), textfmt.Ms(s.Spread.Max), lag50, lag99, textfmt.Ms(s.Dial.DialMean))
	}
	t.Note = "sub: from the subscribe call to its answer; spread: per event, from the first subscriber " +
		"receiving it to the last; lag: a head's arrival after its block's timestamp (whole seconds, " +
		"so up to a second more than the wire's); dial: the mean time to open a connection"
	return t
}
