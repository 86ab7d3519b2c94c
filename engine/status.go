package engine

import "strconv"

// maxStatus bounds the statuses counted by code; anything at or above it (never seen from a
// sane server) is counted under "other" — still counted, never lost.
const maxStatus = 600

// statusCounts counts answers per HTTP status. A run sees few distinct statuses (200 and 429, a
// 5xx or two), so a short list searched from the front costs no more than an array indexed by
// status, and takes a few bytes instead of 4.7 KiB: there is one per request of the mix per
// stage, and a mix may hold a thousand requests.
type statusCounts struct {
	list []statusCount
	big  int64 // statuses ≥ maxStatus
}

type statusCount struct {
	code uint16
	n    int64
}

// add counts one answer with status code.
func (c *statusCounts) add(code uint16) {
	if code >= maxStatus {
		c.big++
		return
	}
	for i := range c.list {
		if c.list[i].code == code {
			c.list[i].n++
			return
		}
	}
	c.list = append(c.list, statusCount{code: code, n: 1})
}

// reset empties the counts, keeping the list's storage for reuse.
func (c *statusCounts) reset() {
	c.list = c.list[:0]
	c.big = 0
}

// toMap is the counts as a Summary or Row carries them: status text → count, "other" for the
// statuses ≥ maxStatus.
func (c *statusCounts) toMap() map[string]int64 {
	m := make(map[string]int64, len(c.list)+1)
	for _, s := range c.list {
		m[strconv.Itoa(int(s.code))] = s.n
	}
	if c.big > 0 {
		m["other"] = c.big
	}
	return m
}
