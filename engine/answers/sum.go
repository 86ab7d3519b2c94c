package answers

// Sum adds up the comparisons of shards of one run (rpcstress merge): counts in total, per
// request name and per pair of targets are summed; the examples are kept in the shards' order,
// as many per request name and kind as one run keeps (Keep, the largest of the shards'; 0: the
// default).
// nil when there is nothing to sum.
func Sum(rs []*Result) *Result {
	if len(rs) == 0 {
		return nil
	}
	out := &Result{Targets: rs[0].Targets, ByRequest: map[string]Counts{}}
	pairAt := map[[2]string]int{}
	for _, r := range rs {
		out.Keep = max(out.Keep, r.Keep)
		addCounts(&out.Totals, r.Totals)
		for name, c := range r.ByRequest {
			sum := out.ByRequest[name]
			addCounts(&sum, c)
			out.ByRequest[name] = sum
		}
		for _, p := range r.Pairs {
			k := [2]string{p.A, p.B}
			i, ok := pairAt[k]
			if !ok {
				i = len(out.Pairs)
				pairAt[k] = i
				out.Pairs = append(out.Pairs, PairCounts{A: p.A, B: p.B})
			}
			addCounts(&out.Pairs[i].Counts, p.Counts)
		}
	}
	keep := out.Keep
	if keep <= 0 {
		keep = defaultKeep
	}
	kept := map[[2]string]int{} // by request name and kind
	for _, r := range rs {
		for _, e := range r.Examples {
			if k := [2]string{e.Request, string(e.Kind)}; kept[k] < keep {
				kept[k]++
				out.Examples = append(out.Examples, e)
			}
		}
	}
	return out
}

// defaultKeep is how many examples a comparison keeps per request name and kind when
// Options.Keep is 0.
const defaultKeep = 5

// addCounts adds b's counts to a's, kind by kind.
func addCounts(a *Counts, b Counts) {
	to, from := a.kinds(), b.kinds()
	for i := range to {
		*to[i] += *from[i]
	}
}

// kinds are the counts, each one once: what is summed.
func (c *Counts) kinds() [6]*int64 {
	return [...]*int64{&c.Compared, &c.Match, &c.Mismatch, &c.ErrorVsResult, &c.HeadSkew, &c.Incomplete}
}
