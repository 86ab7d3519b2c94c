// Package suggest finds the name a person most likely meant when they mistyped one: a profile
// key, a template function, a threshold metric, a command-line verb or flag. It is the one
// place rpcstress decides what is "close enough" for a "did you mean" hint.
package suggest

import "strings"

// Closest returns the name of valid closest to typed, or "" when none is close enough to be a
// plausible typo: at most one edit away for names shorter than 4 bytes, two for longer ones
// (so "rat" finds "rate" but "x" finds nothing). Case is ignored, so "URL" suggests "url";
// ties go to the first of valid.
func Closest(typed string, valid []string) string {
	best, bestDist := "", 1<<30
	k := strings.ToLower(typed)
	for _, v := range valid {
		if d := distance(k, strings.ToLower(v)); d < bestDist {
			best, bestDist = v, d
		}
	}
	limit := 1
	if len(typed) >= 4 {
		limit = 2
	}
	if bestDist > limit {
		return ""
	}
	return best
}

// distance is the Levenshtein distance between a and b, by bytes (names are ASCII).
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
