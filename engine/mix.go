package engine

import "math/rand/v2"

// mix picks requests from the weighted request mix. It is immutable once built and shared by all
// workers; each worker brings its own random source, so picking takes no lock and no allocation.
type mix struct {
	cum   []uint64 // cumulative weights
	total uint64
}

func newMix(reqs []Request) mix {
	m := mix{cum: make([]uint64, len(reqs))}
	for i, r := range reqs {
		w := r.Weight
		if w < 1 {
			w = 1 // the profile loader refuses weight ≤ 0; a hand-built Config still gets a share
		}
		m.total += uint64(w)
		m.cum[i] = m.total
	}
	return m
}

// pick returns the index of a request, each with probability weight/total.
func (m *mix) pick(rng *rand.Rand) int {
	if len(m.cum) <= 1 {
		return 0
	}
	x := rng.Uint64N(m.total)
	lo, hi := 0, len(m.cum)-1
	for lo < hi { // first i with cum[i] > x
		mid := (lo + hi) / 2
		if m.cum[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
