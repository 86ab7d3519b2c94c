package watch

import (
	"errors"
	"fmt"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Selector picks series of a node's metrics: a name, and labels that must have these values
// (name{label="value",…}, as PromQL writes it without operators). Every series that matches
// is added up: node_cpu_seconds_total{mode="user"} is the user CPU of every core.
//
// rate(…) around a selector shows the series as a rate per second whatever its type: some
// nodes export running counts as gauges (go-ethereum's rpc_requests).
type Selector struct {
	Text   string // as written
	Name   string
	Labels map[string]string
	Rate   bool // rate(…): shown per second, as a counter
}

// maxSelector is the longest selector read: a name and a few labels.
const maxSelector = 1024

// ParseSelector reads a selector. It is read by Prometheus's own text parser, as one line of
// an exposition with the value 0, so a selector is written exactly as the endpoint shows its
// series (quotes and escapes included).
func ParseSelector(text string) (Selector, error) {
	s := strings.TrimSpace(text)
	switch {
	case s == "":
		return Selector{}, errors.New(`is empty: name a series, e.g. "chain_head_block" or 'p2p_peers{direction="inbound"}'`)
	case len(s) > maxSelector:
		return Selector{}, fmt.Errorf("is %d bytes long: a series name and its labels fit in %d", len(s), maxSelector)
	case strings.ContainsAny(s, "\n\r#"):
		return Selector{}, fmt.Errorf("%q is not a series: write one name, with labels in braces if needed, e.g. 'p2p_peers{direction=\"inbound\"}'", clip(s, 60))
	}
	inner, rate := s, false
	if in, ok := strings.CutPrefix(s, "rate("); ok && strings.HasSuffix(in, ")") {
		inner, rate = strings.TrimSpace(strings.TrimSuffix(in, ")")), true
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(inner + " 0\n"))
	if err == nil && (len(fams) != 1 || countMetrics(fams) != 1 || hasTimestamp(fams)) {
		err = errors.New("one series at a time, without a value")
	}
	if err != nil {
		return Selector{}, fmt.Errorf("%q is not a series (%s): write it as name, name{label=\"value\"} or rate(name)", clip(s, 60), parseMsg(err))
	}
	sel := Selector{Text: s, Labels: map[string]string{}, Rate: rate}
	for name, f := range fams {
		sel.Name = name
		for _, lp := range f.GetMetric()[0].GetLabel() {
			sel.Labels[lp.GetName()] = lp.GetValue()
		}
	}
	return sel, nil
}

// parseMsg is the text parser's complaint without its line number (always 1 here).
func parseMsg(err error) string {
	var pe expfmt.ParseError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

// hasTimestamp reports whether the line held a value of its own ("m 1" reads as the value 1
// at the time 0 we added).
func hasTimestamp(fams map[string]*dto.MetricFamily) bool {
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			if m.TimestampMs != nil {
				return true
			}
		}
	}
	return false
}

func countMetrics[M interface{ GetMetric() []T }, T any](fams map[string]M) int {
	n := 0
	for _, f := range fams {
		n += len(f.GetMetric())
	}
	return n
}

// matches reports whether a series (its labels, __name__ included) is one the selector picks.
func (s *Selector) matches(m model.Metric) bool {
	if string(m[model.MetricNameLabel]) != s.Name {
		return false
	}
	for k, v := range s.Labels {
		if string(m[model.LabelName(k)]) != v {
			return false
		}
	}
	return true
}
