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
	return fmt.Sprintf("sent %d  ok %s  limited %s  failed %s",
		c.Sent, countPct(c.OK, done), countPct(c.Limited, done), countPct(c.Failed, done))
}

// faultsTable lists the ways answers broke JSON-RPC, by kind; left out when none did.
func faultsTable(tot *engine.Summary) *textfmt.Table {
	t := textfmt.NewTable("lrl", "fault", "count", "what")
	t.Caption = "JSON-RPC answer faults (each fails its call, or its request)"
	for _, r := range runtext.FaultRows(tot.Calls.Faults) {
		t.Add(r...)
	}
	return t
}
