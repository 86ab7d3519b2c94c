package profiles

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// bodyPreview is how much of each body Describe shows.
const bodyPreview = 60

// Describe writes the resolved profile for people (`rpcstress validate`): target, mode,
// headers with secrets hidden, the request mix with each request's share, and the plan with
// each stage's start time and expected number of requests. Names, paths, URLs, headers and
// bodies come from files: each is made safe to show (safetext; a tab would also break the
// columns) before it is laid out.
func (p *Profile) Describe(w io.Writer) {
	c := p.Config
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintf(tw, "profile\t%s (%s)\n", safetext.Line(p.Name), safetext.Line(p.Path))
	fmt.Fprintf(tw, "target\t%s %s\n", c.Method, safetext.Line(c.DisplayURL))
	if c.Mode == engine.ModeClosed {
		fmt.Fprintf(tw, "mode\tclosed: %d connections send back to back; stage rates are ignored, stages only bound time\n", c.Connections)
	} else {
		fmt.Fprintf(tw, "mode\topen: sends on the plan's schedule whatever the answers do, up to %d connections\n", c.Connections)
	}
	fmt.Fprintf(tw, "timeout\t%s per request; bodies over %s count as too large\n", c.Timeout, byteSize(c.MaxBodyBytes))
	if c.MaxRequests > 0 {
		fmt.Fprintf(tw, "limit\tstops after %d requests\n", c.MaxRequests)
	}
	if len(p.Overridden) > 0 {
		fmt.Fprintf(tw, "overrides\t%s\n", safetext.Line(strings.Join(p.Overridden, " ")))
	}
	for i, h := range redactHeaders(c.Headers) {
		label := ""
		if i == 0 {
			label = "headers"
		}
		fmt.Fprintf(tw, "%s\t%s: %s\n", label, safetext.Line(h.Name), safetext.Line(h.Value))
	}
	if c.TLS.Insecure {
		fmt.Fprintf(tw, "tls\tTLS verification OFF (insecure = true): any certificate is accepted\n")
	}
	if c.TLS.CAFile != "" {
		fmt.Fprintf(tw, "tls\ttrusts the CA in %s as well as the system's\n", safetext.Line(c.TLS.CAFile))
	}
	fmt.Fprintf(tw, "rate-limited\tHTTP %s; JSON-RPC codes %s\n", joinInts(c.Limits.Statuses), joinInts(c.Limits.RPCCodes))
	p.describeSearch(tw)
	p.describeThresholds(tw)
	tw.Flush()

	p.describeRequests(w)
	if len(c.Plan.Stages) > 0 || !p.HasSearch {
		p.describePlan(w) // a find-limit-only profile has none: the search makes its own
	}
}

// describeRequests writes the request mix.
func (p *Profile) describeRequests(w io.Writer) {
	c := p.Config
	total := 0
	for _, r := range c.Requests {
		total += r.Weight
	}
	fmt.Fprintf(w, "\nrequests (%d, share by weight)\n", len(c.Requests))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  name\tweight\tshare\tbytes\tbody")
	for _, r := range c.Requests {
		share := 100 * float64(r.Weight) / float64(max(total, 1))
		fmt.Fprintf(tw, "  %s\t%d\t%.1f%%\t%d\t%s\n", safetext.Line(r.Name), r.Weight, share, len(r.Body), requestPreview(r))
	}
	tw.Flush()
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
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if perMin {
		fmt.Fprintln(tw, "#\tname\trate\tper min\tduration\tstart\trequests\t")
	} else {
		fmt.Fprintln(tw, "#\tname\trate\tduration\tstart\trequests\t")
	}
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
		if perMin {
			rate += "\t" + strconv.FormatFloat(math.Round(st.Rate.PerSecond()*60*100)/100, 'f', -1, 64) + "/m"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t\n", i+1, safetext.Line(st.Name), rate, dur, shortDuration(at), reqs)
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
	gap := "\t\t\t"
	if perMin {
		gap += "\t"
	}
	fmt.Fprintf(tw, "total%s%s\t\t%s\t\n", gap, total, reqs)
	tw.Flush()
}

// requestPreview shows what a request sends: the start of its body, after its own method and
// path when it has them (targets; never the query, where API keys live), and marked "e.g." when
// a template renders a fresh body for every send.
func requestPreview(r engine.Request) string {
	var s string
	if r.Method != "" || r.Path != "" {
		path, _, _ := strings.Cut(r.Path, "?")
		s = safetext.Line(strings.TrimSpace(r.Method+" "+path)) + " "
	}
	if r.Template != nil {
		s += "e.g. "
	}
	return s + preview(r.Body)
}

// preview is the start of a body on one line, safe to show (safetext).
func preview(body []byte) string {
	return clip(safetext.Line(strings.Join(strings.Fields(string(body)), " ")), bodyPreview)
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
