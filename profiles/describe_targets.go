package profiles

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// describeTargets are validate's rows for several targets: each target's name, URL (as
// displayed: no userinfo, query or ${VAR} values), connections, its own headers (secrets
// hidden) and TLS settings.
func describeTargets(c *engine.Config) [][2]string {
	rows := [][2]string{{"targets", fmt.Sprintf("%d side by side: every request goes to each at the same intended time, with the same body", len(c.Targets))}}
	for _, t := range c.Targets {
		conns := c.Connections
		if t.Connections > 0 {
			conns = t.Connections
		}
		rows = append(rows, [2]string{"  " + t.Name, fmt.Sprintf("%s %s, %s", c.Method, safetext.Line(t.DisplayURL), plural(conns, "connection"))})
		for _, h := range redactHeaders(t.Headers) {
			rows = append(rows, [2]string{"", fmt.Sprintf("header %s: %s", safetext.Line(h.Name), safetext.Line(h.Value))})
		}
		switch {
		case t.TLS != nil && t.TLS.Insecure:
			rows = append(rows, [2]string{"", "TLS verification OFF (insecure = true): any certificate is accepted"})
		case t.TLS != nil && c.TLS.Insecure: // the profile's OFF does not hold for this one
			rows = append(rows, [2]string{"", "TLS verified (its own insecure = false)"})
		}
		if t.TLS != nil && t.TLS.CAFile != "" {
			rows = append(rows, [2]string{"", "trusts the CA in " + safetext.Line(t.TLS.CAFile) + " as well as the system's"})
		}
		if t.WSURL != "" {
			rows = append(rows, [2]string{"", "WebSocket at " + safetext.Line(t.WSDisplayURL)})
		}
	}
	return rows
}

// describeCompare is validate's row for the comparison of answers, or how to turn it on.
func describeCompare(c *engine.Config) [][2]string {
	if len(c.Targets) == 0 {
		return nil
	}
	if !c.CompareAnswers {
		return [][2]string{{"compare", "answers not compared: compare_answers = true or --equality compares them"}}
	}
	numbers := `numbers exact (a hex string "0x1b4" is not the number 436)`
	if c.Answers.NumbersByValue {
		numbers = `numbers by value (the hex string "0x1b4" equals the number 436)`
	}
	return [][2]string{{"compare", fmt.Sprintf("answers compared as JSON (key order, whitespace and the id ignored); %s; the first %d mismatches of each request kept",
		numbers, keepOrDefault(c.Answers.Keep))}}
}

// keepOrDefault is compare_keep as the comparison uses it: 0 means 5 (answers.Options).
func keepOrDefault(n int) int {
	if n == 0 {
		return 5
	}
	return n
}

// ignoreLines say which paths a request's comparison leaves out, wrapped to the width.
func ignoreLines(c *engine.Config, name string) []string {
	paths := c.Answers.Ignore[name]
	if !c.CompareAnswers || len(paths) == 0 {
		return nil
	}
	s := "compare ignores " + safetext.Line(strings.Join(paths, ", "))
	return textfmt.WrapAt(s, describeWidth-4, " ,")
}
