package answers

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// maxIgnore is how many ignore paths one request may name: the walk tracks the paths still
// alive below a value as the bits of one uint64, so ignoring costs no allocation.
const maxIgnore = 64

// segment is one step of an ignore path: a key, an array index, or "*" (any key or index).
type segment struct {
	key string
	idx int // the key as an array index; -1 when it is none
	any bool
}

// matchKey: the segment names this object member.
func (s segment) matchKey(k []byte) bool { return s.any || s.key == string(k) }

// matchIndex: the segment names this array item.
func (s segment) matchIndex(i int) bool { return s.any || s.idx == i }

// ignoreSet is one request's compiled ignore paths.
type ignoreSet struct {
	paths [][]segment
}

// all is the mask of every path: where a walk starts.
func (g *ignoreSet) all() uint64 {
	if g == nil || len(g.paths) == 0 {
		return 0
	}
	return 1<<uint(len(g.paths)) - 1 // len ≤ 64; 1<<64 is 0 in Go, minus 1 is all ones
}

// step follows the paths in mask (alive to depth d) down one member or item, named by match:
// child is the mask of those that go on below it, drop says one of them ends there (the value
// is left out of the comparison).
func (g *ignoreSet) step(mask uint64, d int, match func(segment) bool) (child uint64, drop bool) {
	for m := mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		p := g.paths[i]
		if !match(p[d]) {
			continue
		}
		if d == len(p)-1 {
			return 0, true
		}
		child |= 1 << uint(i)
	}
	return child, false
}

// stepKey and stepIndex are step for an object member and an array item.
func (g *ignoreSet) stepKey(mask uint64, d int, k []byte) (uint64, bool) {
	if mask == 0 {
		return 0, false
	}
	return g.step(mask, d, func(s segment) bool { return s.matchKey(k) })
}

func (g *ignoreSet) stepIndex(mask uint64, d, i int) (uint64, bool) {
	if mask == 0 {
		return 0, false
	}
	return g.step(mask, d, func(s segment) bool { return s.matchIndex(i) })
}

// CheckIgnorePath reports whether path is a valid ignore path: keys joined by dots, from the
// answer's top ("result.timestamp"), where a key may be an array index ("result.0.hash") or "*"
// for any key or index ("result.transactions.*.hash"). Profiles call it to name the file and
// line of a bad path; New checks every path again.
func CheckIgnorePath(path string) error {
	_, err := parsePath(path)
	return err
}

// parsePath reads one ignore path into its segments.
func parsePath(path string) ([]segment, error) {
	const how = `write keys joined by dots, e.g. "result.timestamp" or "result.transactions.*.hash"`
	if strings.TrimSpace(path) == "" {
		return nil, errors.New("the ignore path is empty: " + how)
	}
	if strings.ContainsAny(path, "[]") {
		return nil, fmt.Errorf("ignore path %q has brackets: write an array index as a key, e.g. \"result.transactions.0.hash\"", path)
	}
	if strings.TrimSpace(path) != path {
		return nil, fmt.Errorf("ignore path %q has spaces around it: %s", path, how)
	}
	parts := strings.Split(path, ".")
	segs := make([]segment, len(parts))
	for i, p := range parts {
		if p == "" {
			return nil, fmt.Errorf("ignore path %q has an empty key: %s", path, how)
		}
		segs[i] = segment{key: p, idx: -1, any: p == "*"}
		if n, err := strconv.ParseUint(p, 10, 31); err == nil && strconv.FormatUint(n, 10) == p {
			segs[i].idx = int(n)
		}
	}
	return segs, nil
}

// compileIgnore compiles Options.Ignore, naming the request of a bad path.
func compileIgnore(ignore map[string][]string) (map[string]*ignoreSet, error) {
	sets := make(map[string]*ignoreSet, len(ignore))
	for name, paths := range ignore {
		if len(paths) > maxIgnore {
			return nil, fmt.Errorf("request %q names %d ignore paths: at most %d; ignore a parent instead (\"result\" leaves out all below it)", name, len(paths), maxIgnore)
		}
		g := &ignoreSet{}
		for _, p := range paths {
			segs, err := parsePath(p)
			if err != nil {
				return nil, fmt.Errorf("request %q: %w", name, err)
			}
			g.paths = append(g.paths, segs)
		}
		sets[name] = g
	}
	return sets, nil
}
