package runtext

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/rpcstress/rpcstress/engine"
)

// The chain's head in words, as the dashboard, the per-second lines and the report say it:
// "head 20,123,456 (+5 in 10s)", "lag 3 blocks". Heads are grouped by thousands: they are
// read, not copied, and 300000123 is hard to read.

// HeadNumber writes a head grouped by thousands: 20,123,456.
func HeadNumber(n uint64) string { return message.NewPrinter(language.English).Sprint(n) }

// HeadUnit is what a chain's head counts: blocks (EVM) or slots (Solana).
func HeadUnit(c engine.Chain) string {
	if c == engine.ChainSolana {
		return "slots"
	}
	return "blocks"
}

// HeadPhrase is the head and how far it moved lately: "head 20,123,456 (+5 in 10s)", or
// just "head 20,123,456" before there is a span to tell.
func HeadPhrase(head uint64, advance int64, over time.Duration) string {
	s := "head " + HeadNumber(head)
	if over > 0 {
		s += fmt.Sprintf(" (%+d in %s)", advance, over.Round(time.Second))
	}
	return s
}

// LagPhrase is the target's lag behind the reference node: "lag 3 blocks", "lag 1 slot",
// or "ahead 2 blocks" when the target is ahead of it.
func LagPhrase(c engine.Chain, lag int64) string {
	word, n := "lag", lag
	if lag < 0 {
		word, n = "ahead", -lag
	}
	unit := HeadUnit(c)
	if n == 1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return fmt.Sprintf("%s %d %s", word, n, unit)
}

// StalePhrase says a head is stale: "stale 12s: HTTP 429 Too Many Requests".
func StalePhrase(r engine.HeadReading) string {
	return fmt.Sprintf("stale %s: %s", r.Age.Round(time.Second), r.LastErr)
}
