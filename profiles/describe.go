package profiles

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// describeWidth is the width validate's output fits (an 80-column terminal).
const describeWidth = 80

// bodyLines is the most lines of one body Describe shows: a JSON-RPC call takes one to a
// few, so it is shown whole; a payload of megabytes (a body_file, {{payload N}}) is not
// read by anyone, and its size is in the bytes column.
const bodyLines = 12

// Describe writes the resolved profile for people (`rpcstress validate`): target, mode,
// headers with secrets hidden, the request mix with each request's share and a whole sample
// body, and the plan with each stage's start time and expected number of requests. It fits
// 80 columns: long values wrap under themselves. Names, paths, URLs, headers and bodies come
// from files: each is made safe to show (safetext; a tab would also break the columns)
// before it is laid out.
func (p *Profile) Describe(w io.Writer) {
	c := p.Config
	var rows [][2]string
	add := func(key, format string, args ...any) {
		rows = append(rows, [2]string{key, fmt.Sprintf(format, args...)})
	}
	add("profile", "%s (%s)", safetext.Line(p.Name), safetext.Line(p.Path))
	perTarget := ""
	if len(c.Targets) > 0 {
		rows, perTarget = append(rows, describeTargets(c)...), " per target"
	} else {
		method := c.Method // what a WebSocket run sends is a frame, not an HTTP request
		if c.UsesWebSocket() {
			method = "WebSocket"
		}
		add("target", "%s %s", method, safetext.Line(c.DisplayURL))
	}
	if c.Mode == engine.ModeClosed {
		add("mode", "closed: %d connections send back to back; stage rates are ignored, stages only bound time", c.Connections)
	} else {
		add("mode", "open: sends on the plan's schedule whatever the answers do, up to %d connections%s", c.Connections, perTarget)
	}
	if key, text, ok := describeHTTP(c); ok {
		add(key, "%s", text)
	}
	if c.SendTick != 0 {
		add("send tick", "%s", sendTickText(c))
	}
	add("timeout", "%s per request; bodies over %s count as too large", c.Timeout, byteSize(c.MaxBodyBytes))
	if c.MaxRequests > 0 {
		add("limit", "stops after %d requests", c.MaxRequests)
	}
	if p.DataDir != "" {
		add("data", "{{line}} files from the folder %s", safetext.Line(p.DataDir))
	}
	if len(p.Overridden) > 0 {
		add("overrides", "%s", safetext.Line(strings.Join(p.Overridden, " ")))
	}
	for i, h := range redactHeaders(c.Headers) {
		label := ""
		if i == 0 {
			label = "headers"
		}
		add(label, "%s: %s", safetext.Line(h.Name), safetext.Line(h.Value))
	}
	if c.TLS.Insecure {
		add("tls", "TLS verification OFF (insecure = true): any certificate is accepted")
	}
	if c.TLS.CAFile != "" {
		add("tls", "trusts the CA in %s as well as the system's", safetext.Line(c.TLS.CAFile))
	}
	add("rate-limited", "HTTP %s; JSON-RPC codes %s", joinInts(c.Limits.Statuses), joinInts(c.Limits.RPCCodes))
	rows = append(rows, describeCompare(c)...)
	if h := c.Head; h.On() {
		add("chain", "%s: %s every %s, apart from the load", h.Chain, h.Chain.HeadMethod(), headEvery(h))
		if h.RefDisplay != "" {
			add("reference", "%s (the target's lag behind it)", safetext.Line(h.RefDisplay))
		}
	}
	rows = append(rows, p.describeSubscriptions()...)
	rows = append(rows, p.describeSearch()...)
	rows = append(rows, p.describeThresholds()...)
	writeRows(w, rows)

	if len(c.Requests) > 0 || len(c.Subscriptions) == 0 { // subscriptions alone send none
		p.describeRequests(w)
	}
	if len(c.Plan.Stages) > 0 || !p.HasSearch {
		p.describePlan(w) // a find-limit-only profile has none: the search makes its own
	}
}

// writeRows writes key/value rows, the values in one column, each wrapped to describeWidth
// with its continuation lines under it.
func writeRows(w io.Writer, rows [][2]string) {
	keyWidth := 0
	for _, r := range rows {
		keyWidth = max(keyWidth, utf8.RuneCountInString(r[0]))
	}
	keyWidth += 2
	for _, r := range rows {
		for i, l := range textfmt.WrapAt(r[1], describeWidth-keyWidth, "") {
			key := r[0]
			if i > 0 {
				key = ""
			}
			fmt.Fprintf(w, "%-*s%s\n", keyWidth, key, l)
		}
	}
}

// describeRequests writes the request mix: a row of numbers per request, and under it what
// it sends.
func (p *Profile) describeRequests(w io.Writer) {
	c := p.Config
	total, nameWidth := 0, len("name")
	names := make([]string, len(c.Requests))
	for i, r := range c.Requests {
		total += r.Weight
		// A long batch name is cut so the numbers stay within the width.
		names[i] = ansi.Truncate(safetext.Line(r.Name), describeWidth-2-27, "…")
		nameWidth = max(nameWidth, ansi.StringWidth(names[i]))
	}
	costs := false
	for _, r := range c.Requests {
		costs = costs || r.Cost > 0
	}
	fmt.Fprintf(w, "\nrequests (%d, share by weight)\n", len(c.Requests))
	row := func(name, weight, share, bytes string) {
		fmt.Fprintf(w, "  %s%s  %6s  %6s  %8s\n", name, strings.Repeat(" ", nameWidth-ansi.StringWidth(name)), weight, share, bytes)
	}
	row("name", "weight", "share", "bytes")
	for i, r := range c.Requests {
		share := 100 * float64(r.Weight) / float64(max(total, 1))
		row(names[i], strconv.Itoa(r.Weight), strconv.FormatFloat(share, 'f', 1, 64)+"%", strconv.Itoa(len(r.Body)))
		for _, l := range requestLines(r) {
			fmt.Fprintf(w, "    %s\n", l)
		}
		var info requestInfo
		if i < len(p.info) {
			info = p.info[i]
		}
		for _, l := range append(asksLines(info, r, costs), ignoreLines(c, r.Name)...) {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
}

// asksLines say what a request expects of its answers and what one send costs (when the
// profile sets costs), wrapped to the width.
func asksLines(info requestInfo, r engine.Request, costs bool) []string {
	var out []string
	if len(info.Expect) > 0 {
		s := "expect " + safetext.Line(strings.Join(info.Expect, "; "))
		out = append(out, textfmt.WrapAt(s, describeWidth-4, " ")...)
	}
	if costs {
		out = append(out, fmt.Sprintf("cost   %d units a send", r.Cost))
	}
	return out
}

// describePlan writes the stages with start times and expected requests.
func (p *Profile) describePlan(w io.Writer) {
	c := p.Config
	closed := c.Mode == engine.ModeClosed
	head := "plan"
	if p.Ramp != nil && !p.planChanged {
		how := "+" + p.Ramp.Step.String()
		if p.Ramp.Factor > 0 {
			how = "×" + strconv.FormatFloat(p.Ramp.Factor, 'f', -1, 64)
		}
		head = fmt.Sprintf("plan: ramp %s → %s, %s every %s", p.Ramp.fromText, p.Ramp.toText, how, shortDuration(p.Ramp.Every))
	}
	fmt.Fprintf(w, "\n%s (%s)\n", head, plural(len(c.Plan.Stages), "stage"))
	// Rates written per minute (nginx's r/m, seed 002) read better per minute too.
	perMin := p.perMinute && !closed
	cols := []string{"#", "name", "rate", "duration", "start", "requests"}
	if perMin {
		cols = []string{"#", "name", "rate", "per min", "duration", "start", "requests"}
	}
	t := textfmt.NewTable(strings.Repeat("r", len(cols)), cols...)
	var (
		at      time.Duration
		planned float64
		endless bool
	)
	for i, st := range c.Plan.Stages {
		rate, dur, reqs := st.Rate.String(), "until stopped", "-"
		if st.Duration > 0 {
			dur = shortDuration(st.Duration)
			n := math.Round(st.Rate.PerSecond() * st.Duration.Seconds())
			planned += n
			reqs = strconv.FormatFloat(n, 'f', 0, 64)
		} else {
			endless = true
		}
		if closed {
			rate, reqs = "-", "-"
		}
		row := []string{strconv.Itoa(i + 1), st.Name, rate}
		if perMin {
			row = append(row, strconv.FormatFloat(math.Round(st.Rate.PerSecond()*60*100)/100, 'f', -1, 64)+"/m")
		}
		t.Add(append(row, dur, shortDuration(at), reqs)...)
		at += st.Duration
	}
	total, reqs := shortDuration(at), strconv.FormatFloat(planned, 'f', 0, 64)
	if endless {
		total, reqs = "until stopped", "unbounded"
	}
	if closed {
		reqs = "as fast as answered"
	}
	if n := c.MaxRequests; n > 0 && (closed || endless || planned > float64(n)) {
		reqs = fmt.Sprintf("%d (requests limit)", n)
	}
	// The totals go under duration and requests: the columns before them are blank.
	t.Add(append(append([]string{"total"}, make([]string, len(cols)-4)...), total, "", reqs)...)
	for _, l := range t.Lines("  ", 0) { // as wide as it is: a plan is read whole, never cut
		fmt.Fprintln(w, l)
	}
}

// requestLines show what a request sends, wrapped to fit under its row: its own method and
// path when it has them (targets; never the query, where API keys live), then its body
// whole, marked "e.g." when a template renders a fresh one for every send; at most
// bodyLines lines.
func requestLines(r engine.Request) []string {
	var s string
	if r.Method != "" || r.Path != "" {
		path, _, _ := strings.Cut(r.Path, "?")
		s = safetext.Line(strings.TrimSpace(r.Method+" "+path)) + " "
	}
	if r.Template != nil {
		s += "e.g. "
	}
	width := describeWidth - 4
	body := string(r.Body)
	// Cut before wrapping: a body of megabytes must not be wrapped whole to show 12 lines.
	limit := bodyLines * width * 2
	cut := len(body) > limit
	if cut {
		body = body[:limit]
	}
	s += safetext.Line(strings.Join(strings.Fields(body), " "))
	if strings.TrimSpace(s) == "" {
		return []string{"(no body)"}
	}
	lines := textfmt.WrapAt(s, width, ",")
	if len(lines) > bodyLines || cut {
		lines = lines[:min(len(lines), bodyLines-1)]
		lines = append(lines, fmt.Sprintf("… (%d bytes in all)", len(r.Body)))
	}
	return lines
}

// shortDuration writes 90s as "1m30s" and 1h as "1h" rather than "1h0m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// byteSize writes a byte count the way max_body is usually written.
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// plural writes "1 stage", "7 stages".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func joinInts(s []int) string {
	if len(s) == 0 {
		return "(none)"
	}
	parts := make([]string, len(s))
	for i, n := range s {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// sendTickText is validate's row for a send_tick: how late a send may leave, and how many go at
// once at the plan's highest rate (a limiter whose burst is smaller refuses the rest).
func sendTickText(c *engine.Config) string {
	top := engine.Rate(0)
	for _, st := range c.Plan.Stages {
		top = max(top, st.Rate)
	}
	s := fmt.Sprintf("the scheduler wakes every %s: a send leaves up to %s after its intended time", c.SendTick, c.SendTick)
	if n := math.Ceil(float64(top) * c.SendTick.Seconds()); n > 1 {
		s += fmt.Sprintf(", up to %.0f at once at %s", n, top)
	}
	return s
}
