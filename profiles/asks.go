package profiles

import (
	"math"
	"slices"
	"strconv"

	"github.com/rpcstress/rpcstress/engine"
)

// maxCost bounds one call's cost: providers bill a few to a few thousand units per call, so a
// larger number is a typo (and a batch of 10,000 such calls still fits the engine's count).
const maxCost = 100_000

// asked is what one [[request]] asks of its answers and what it costs, as read.
type asked struct {
	// costed are the fields (the request, or calls of its batch list) with a cost; uncosted
	// those without. A profile gives every call a cost or none (see checkCosts).
	costed, uncosted []string
	// labels are the request's rules, each once, for people.
	labels []string
}

// asks reads what request t asks of its answers (expect) and what it costs (cost), for the
// request and, in a batch list, for each call (a call's own expect or cost replaces the
// request's; the request's replaces dflt, the profile's top-level expect). It gives them to
// req: the CallSpecs of req.RPC, and req.Cost, the cost of one send.
func (c *checker) asks(t table, path string, s requestSends, req *engine.Request, dflt expectRules) (asked, bool) {
	var a asked
	e, ok := c.expect(t, path)
	inherited := !e.given
	if inherited {
		e = dflt
	}
	cost, costSet, cok := c.cost(t, path)
	ok = ok && cok
	if req.RPC == nil { // not JSON-RPC: nothing to check, the request is the unit of cost
		if len(e.rules) > 0 {
			if inherited {
				c.addf(path, `the profile's expect checks JSON-RPC results, and this request's body is not JSON-RPC calls: add expect = "none" to it`)
			} else {
				c.addf(path+".expect", "checks a JSON-RPC result, and this request's body is not JSON-RPC calls: remove expect, or send a JSON-RPC call (method = …)")
			}
			ok = false
		}
		req.Cost = cost
		a.note(path, costSet)
		return a, ok
	}
	var specs []engine.CallSpec
	var total uint64
	if s.key == "batch" {
		for i, call := range s.batchList {
			field := path + ".batch[" + strconv.Itoa(i+1) + "]"
			ce, eok := c.expect(call, field)
			if !ce.given {
				ce = e
			}
			cc, ccSet, ccok := c.cost(call, field)
			if !ccSet {
				cc, ccSet = cost, costSet
			}
			ok = ok && eok && ccok
			a.note(field, ccSet)
			a.label(ce.rules)
			specs = append(specs, engine.CallSpec{Expect: expectOf(ce.rules), Cost: cc})
			total += uint64(cc)
		}
	} else {
		a.note(path, costSet)
		a.label(e.rules)
		specs = []engine.CallSpec{{Expect: expectOf(e.rules), Cost: cost}}
		total = uint64(cost) * uint64(req.RPC.Calls())
	}
	if total > math.MaxUint32 {
		c.addf(path+".cost", "one send of the request costs %d, over the most rpcstress counts per request (%d): lower the cost or the calls", total, uint64(math.MaxUint32))
		return a, false
	}
	if err := req.RPC.SetSpecs(specs); err != nil { // one per call of a list the loader wrote: never
		c.addErr(path, err, "%v", err)
		return a, false
	}
	req.Cost = uint32(total)
	return a, ok
}

// note files field under the fields with a cost or without.
func (a *asked) note(field string, costSet bool) {
	if costSet {
		a.costed = append(a.costed, field)
	} else {
		a.uncosted = append(a.uncosted, field)
	}
}

func (a *asked) label(rules []*engine.ExpectRule) {
	for _, r := range rules {
		if !slices.Contains(a.labels, r.Label) {
			a.labels = append(a.labels, r.Label)
		}
	}
}

// expectOf is rules as the engine takes them: nil for none.
func expectOf(rules []*engine.ExpectRule) *engine.Expect {
	if len(rules) == 0 {
		return nil
	}
	return &engine.Expect{Rules: rules}
}

// cost reads the cost key of t at path: a whole number of cost units. set reports it present
// (an invalid one too, which is recorded: it is not also a call without a cost).
func (c *checker) cost(t table, path string) (cost uint32, set, ok bool) {
	if _, present := t["cost"]; !present {
		return 0, false, true
	}
	n, valid := c.integer(t, path, "cost", 0, maxCost, "cost = 16")
	return uint32(n), true, valid
}

// checkCosts holds the profile to every call having a cost or none: a call left out would
// count 0 and make the cost per second look lower than the provider's bill. Each call without
// one is reported, naming the first that has one.
func (c *checker) checkCosts(all []asked, hasTargets bool) {
	var first string
	for _, a := range all {
		if len(a.costed) > 0 {
			first = a.costed[0]
			break
		}
	}
	if first == "" {
		return
	}
	for _, a := range all {
		for _, f := range a.uncosted {
			c.addf(f, "has no cost while %s.cost is set: give every call a cost (cost = 0 for a free one), or none; in a batch list, the request's cost applies to each call without its own", first)
		}
	}
	if hasTargets {
		c.addf("targets", "the target file's requests have no cost while %s.cost is set: costs are counted for [[request]] tables only; remove the costs, or write the calls as [[request]] tables", first)
	}
}
