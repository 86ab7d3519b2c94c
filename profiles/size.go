package profiles

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseSize reads a byte count: a plain number, or a number with a unit: B, KB, MB, GB
// (powers of 1000) or KiB, MiB, GiB (powers of 1024). Case and a space before the unit are
// forgiven.
func parseSize(s string) (int64, error) {
	in := strings.TrimSpace(s)
	i := strings.IndexFunc(in, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	num, unit := in, ""
	if i >= 0 {
		num, unit = in[:i], strings.TrimSpace(in[i:])
	}
	mult := map[string]float64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30}[strings.ToLower(unit)]
	if mult == 0 {
		return 0, fmt.Errorf("%q: unknown unit %q: use B, KiB, MiB, KB or MB, e.g. \"4MiB\"", s, unit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a size: write a number of bytes or a number with a unit, e.g. \"4MiB\"", s)
	}
	return int64(math.Min(v*mult, math.MaxInt64/2)), nil
}
