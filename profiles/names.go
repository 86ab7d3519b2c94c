package profiles

import "strconv"

// uniqueNames gives requests that were not named explicitly distinct names ("getBalance",
// "getBalance#2"), so per-request numbers never mix two different requests. Explicit names are
// kept as written (duplicates among them were reported already).
func uniqueNames(mix []mixEntry) {
	names := newNameSet(len(mix))
	for _, e := range mix {
		if e.named {
			names.taken[e.req.Name] = true
		}
	}
	for i := range mix {
		if !mix[i].named {
			mix[i].req.Name = names.unique(mix[i].req.Name)
		}
	}
}

// nameSet hands out distinct request names: a profile's mix (uniqueNames) and the requests of
// a target stream as they appear (targetStream) alike.
type nameSet struct {
	taken map[string]bool
	// next is, per base name, the first suffix not yet probed: every lower one is taken (names
	// are never freed), so n requests of one method cost n probes, not n²/2 (a generated
	// profile of 10,000 eth_getBalance calls took 13 s to load).
	next map[string]int
}

func newNameSet(n int) *nameSet {
	return &nameSet{taken: make(map[string]bool, n), next: map[string]int{}}
}

// unique is name, or name#2, name#3 … if it is taken, and takes it.
func (s *nameSet) unique(name string) string {
	unique := name
	for k := max(s.next[name], 2); s.taken[unique]; k++ {
		unique = name + "#" + strconv.Itoa(k)
		s.next[name] = k + 1
	}
	s.taken[unique] = true
	return unique
}
