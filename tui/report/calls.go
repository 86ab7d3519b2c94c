package report

import (
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

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

// writeCallFaults lists the ways answers broke JSON-RPC, by kind; nothing when none did.
func writeCallFaults(ew *textfmt.Writer, tot *engine.Summary) {
	rows := runtext.FaultRows(tot.Calls.Faults)
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
	for _, r := range runtext.FaultRows(tot.Calls.Faults) {
		t.Add(r...)
	}
	return t
}
