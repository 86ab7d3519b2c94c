package promexport

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/rpcstress/rpcstress/engine"
)

// ruleDescs are the series of what a profile may add to a run: expect rules (invalid answers),
// costs and the chain's head. They are emitted only for a run whose profile sets them, from
// its start, so a dashboard tells "none set" from "none happened".
type ruleDescs struct {
	invalid, invalidCalls        *prometheus.Desc
	costOffered, costAccepted    *prometheus.Desc
	headTarget, headRef, headLag *prometheus.Desc
	headReads, headFailures      *prometheus.Desc
}

func newRuleDescs(d func(name, help string, labels ...string) *prometheus.Desc) ruleDescs {
	return ruleDescs{
		invalid:      d("invalid_requests_total", "Requests failed because an answer broke an expect rule (among the failed)."),
		invalidCalls: d("invalid_calls_total", "Calls whose result broke an expect rule, by the rule it broke first.", "rule"),
		costOffered:  d("cost_offered_total", "Cost units of the requests sent (the profile's cost per request)."),
		costAccepted: d("cost_accepted_total", "Cost units of the calls answered ok."),
		headTarget:   d("head_target", "The chain head (block or slot) the target reported last."),
		headRef:      d("head_reference", "The chain head the reference node reported last."),
		headLag:      d("head_lag_blocks", "How many blocks (slots) the target's head is behind the reference node's."),
		headReads:    d("head_reads_total", "Reads of a node's head (the target's, the reference node's).", "node"),
		headFailures: d("head_read_failures_total", "Failed reads of a head.", "node"),
	}
}

func (r *ruleDescs) all() []*prometheus.Desc {
	return []*prometheus.Desc{r.invalid, r.invalidCalls, r.costOffered, r.costAccepted,
		r.headTarget, r.headRef, r.headLag, r.headReads, r.headFailures}
}

// collectRules emits the expect, cost and head series of a run that has them.
func (c *Collector) collectRules(e emitter, st *engine.Stats) {
	r, t := &c.d.rules, &st.Total
	if x := t.Expect; x != nil {
		e.counter(r.invalid, x.Invalid)
		e.counters(r.invalidCalls, x.ByRule)
	}
	if x := t.Cost; x != nil {
		e.counter(r.costOffered, x.Offered)
		e.counter(r.costAccepted, x.Accepted)
	}
	h := st.Head
	if h == nil {
		return
	}
	if h.Target.Known {
		e.gauge(r.headTarget, float64(h.Target.Head))
	}
	e.counter(r.headReads, h.Target.Reads, "target")
	e.counter(r.headFailures, h.Target.Failures, "target")
	if h.Ref != nil {
		if h.Ref.Known {
			e.gauge(r.headRef, float64(h.Ref.Head))
		}
		e.counter(r.headReads, h.Ref.Reads, "reference")
		e.counter(r.headFailures, h.Ref.Failures, "reference")
	}
	if lag, ok := h.Lag(); ok {
		e.gauge(r.headLag, float64(lag))
	}
}
