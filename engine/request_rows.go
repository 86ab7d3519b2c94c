package engine

import "strconv"

// MaxRequestRows is how many requests of a mix get numbers of their own (Summary.ByRequest);
// the requests after them share one more row, named OtherRequests. Per-request numbers are
// there so that one slow or rate-limited method does not hide in the totals, which a person
// reads row by row; each row costs memory, work at every published view, a dozen histogram
// encodings at every save (a quarter of a millisecond each) and snapshot size, so a generated
// profile of 10,000 requests spent seconds per save on rows nobody reads. It is also the most
// distinct requests a target file may hold.
const MaxRequestRows = 1000

// OtherRequests names the row shared by the requests beyond MaxRequestRows (with "#2" … added
// should a request of the mix already have the name).
const OtherRequests = "(other requests)"

// requestRows maps the requests of a mix to rows of per-request numbers: request i to row i,
// and every request from MaxRequestRows on to the last row, OtherRequests.
type requestRows struct {
	names []string // per row; "" for a streamed request not seen yet (see requestAccs)
	n     int      // requests in the mix
}

// newRequestRows makes the rows of reqs. The requests of a Source (streamed) are described
// while the run goes, each before its first send: their rows are named when first seen.
func newRequestRows(reqs []Request, streamed bool) requestRows {
	r := requestRows{n: len(reqs)}
	taken := map[string]bool{}
	for i := range min(len(reqs), MaxRequestRows) {
		name := ""
		if !streamed {
			name = requestName(reqs, i)
		}
		r.names = append(r.names, name)
		taken[name] = true
	}
	if len(reqs) > MaxRequestRows {
		name := OtherRequests
		for k := 2; taken[name]; k++ {
			name = OtherRequests + "#" + strconv.Itoa(k)
		}
		r.names = append(r.names, name)
	}
	return r
}

// of is the row request req counts in.
func (r requestRows) of(req int) int { return min(max(req, 0), len(r.names)-1) }

// requests are the requests of the mix that count in row.
func (r requestRows) requests(row int) (from, to int) {
	if row == MaxRequestRows {
		return row, r.n
	}
	return row, row + 1
}

// requestName is the label of request i: its name, else "request N".
func requestName(reqs []Request, i int) string {
	if reqs[i].Name != "" {
		return reqs[i].Name
	}
	return "request " + strconv.Itoa(i+1)
}

// requestAccs are the accumulators of the row request req counts in, for the run and for the
// stage.
func (a *Aggregator) requestAccs(stage, req int) (total, inStage *spanAcc) {
	row := a.rows.of(req)
	stage = min(max(stage, 0), len(a.stages)-1)
	if a.reqTotal == nil {
		a.reqTotal = make([]*spanAcc, len(a.rows.names))
		a.reqStages = make([][]*spanAcc, len(a.stages))
	}
	if a.reqTotal[row] == nil {
		a.reqTotal[row] = newRequestAcc(a.denseRequests())
		if a.rows.names[row] == "" { // a streamed request, described before it was sent
			a.rows.names[row] = requestName(a.cfg.Requests, row)
		}
	}
	if a.reqStages[stage] == nil {
		a.reqStages[stage] = make([]*spanAcc, len(a.rows.names))
	}
	if a.reqStages[stage][row] == nil {
		acc := a.reqTotal[row]
		if !a.oneSpan() {
			acc = newRequestAcc(a.denseRequests())
		}
		a.reqStages[stage][row] = acc
	}
	return a.reqTotal[row], a.reqStages[stage][row]
}

// denseRequests says whether the per-request accumulators are dense: when a mix (not a
// stream, whose requests are many) of few requests in few stages needs few of them.
func (a *Aggregator) denseRequests() bool {
	n := len(a.rows.names)
	if !a.oneSpan() {
		n *= len(a.stages) + 1
	}
	return a.cfg.Source == nil && n <= denseRequestAccs
}

// byRequest derives the per-request summaries of a stage (stage < 0: the whole run).
func (a *Aggregator) byRequest(stage int) map[string]Summary {
	accs := a.reqTotal
	if stage >= 0 {
		if stage >= len(a.reqStages) {
			return nil
		}
		accs = a.reqStages[stage]
	}
	if len(accs) == 0 {
		return nil
	}
	out := map[string]Summary{}
	for row, acc := range accs {
		if acc == nil {
			continue
		}
		var bk spanBooks
		from, to := a.rows.requests(row)
		bk.sent, bk.callsSent, bk.costSent = a.sentIn(stage, from, to)
		bk.scheduled = bk.sent
		bk.rules, bk.costs = a.asks(from, to)
		out[a.rows.names[row]] = acc.summary(bk)
	}
	return out
}
