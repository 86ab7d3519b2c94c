package tui

import (
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// faultMeanings say in a few words what each JSON-RPC answer fault (engine.Fault's names) is,
// in the order the report lists them.
var faultMeanings = []struct{ name, meaning string }{
	{"missing", "a call got no answer"},
	{"foreign id", "a call answered with another id"},
	{"not JSON-RPC", "an answer that is not JSON-RPC"},
	{"unknown id", "an answer item whose id no call has"},
	{"extra", "a second answer to a call"},
}

// callsText is the calls of a span on one line, shares of the calls answered: "sent 60  ok 40
// (66.7%)  limited 0 (0.0%)  failed 20 (33.3%)"; "" when the span sent no JSON-RPC call.
func callsText(c engine.CallStats) string {
	if c.Sent == 0 && c.Completed() == 0 {
		return ""
	}
	done := c.Completed()
	return fmt.Sprintf("sent %d  ok %d (%s)  limited %d (%s)  failed %d (%s)",
		c.Sent, c.OK, textfmt.Pct(c.OK, done), c.Limited, textfmt.Pct(c.Limited, done), c.Failed, textfmt.Pct(c.Failed, done))
}

// faultsCaption heads the table of faults, in the text report and the HTML page.
const faultsCaption = "JSON-RPC answer faults (each fails its call, or its request)"

// faultRows are the faults of a span by kind, each with its count and meaning, in the order of
// faultMeanings; kinds this build does not know (a newer snapshot) follow, unexplained.
func faultRows(faults map[string]int64) [][]string {
	var rows [][]string
	for _, f := range faultMeanings {
		if n := faults[f.name]; n > 0 {
			rows = append(rows, []string{f.name, textfmt.Int(n), f.meaning})
		}
	}
	for _, name := range textfmt.SortedByCount(faults) {
		if faultMeaning(name) == "" && faults[name] > 0 {
			rows = append(rows, []string{textfmt.OneLine(name), textfmt.Int(faults[name]), ""})
		}
	}
	return rows
}

// writeCallFaults lists the ways answers broke JSON-RPC, by kind; nothing when none did.
func writeCallFaults(ew *textfmt.Writer, tot *engine.Summary) {
	rows := faultRows(tot.Calls.Faults)
	if len(rows) == 0 {
		return
	}
	ew.Line("")
	ew.Line(faultsCaption)
	t := textfmt.NewTable("lrl")
	t.Add("fault", "count", "what")
	for _, r := range rows {
		t.Add(r...)
	}
	ew.Table(t, "  ")
}

// htmlCallFaults is writeCallFaults for the HTML page; empty (left out) when there were none.
func htmlCallFaults(tot *engine.Summary) htmlTable {
	t := newHTMLTable(faultsCaption, "lrl", "fault", "count", "what")
	for _, r := range faultRows(tot.Calls.Faults) {
		t.Add(r...)
	}
	return t
}

func faultMeaning(name string) string {
	for _, f := range faultMeanings {
		if f.name == name {
			return f.meaning
		}
	}
	return ""
}
