package textfmt

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
)

// SumCounts adds up a map of counts (statuses, error classes, RPC codes).
func SumCounts(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// Sum2xx adds up the counts of the 2xx statuses.
func Sum2xx(status map[string]int64) int64 {
	var n int64
	for code, v := range status {
		if len(code) == 3 && code[0] == '2' {
			n += v
		}
	}
	return n
}

// SortedCodes returns the keys of m in numeric order ("-32602" before "-32005" before "200"),
// falling back to text order for keys that are not numbers.
func SortedCodes(m map[string]int64) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		x, errA := strconv.ParseInt(a, 10, 64)
		y, errB := strconv.ParseInt(b, 10, 64)
		switch {
		case errA == nil && errB == nil:
			return cmp.Or(cmp.Compare(x, y), cmp.Compare(a, b)) // "0200" and "200": still one order
		case errA == nil: // numbers first
			return -1
		case errB == nil:
			return 1
		}
		return cmp.Compare(a, b)
	})
}

// SortedByCount returns the keys of m, largest count first, so the commonest problem leads.
func SortedByCount(m map[string]int64) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b))
	})
}
