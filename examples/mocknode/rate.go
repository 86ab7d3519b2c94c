package mocknode

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Rate is requests per second. The mock node parses and prints rates itself: it is the ground
// truth the tester is checked against, so a rate-parsing bug in the tester must not be shared
// by the node (it would hide on both sides).
type Rate float64

// maxRate bounds a configured rate; beyond it a typo is likelier than a test.
const maxRate Rate = 10_000_000

// units maps the unit after "/" to its length in seconds, as nginx writes limit_req rates.
var units = map[string]float64{"s": 1, "m": 60, "h": 3600}

// parseRate reads "1000/s", "240/m", nginx's "240r/m", "3600/h", or a bare number per second.
func parseRate(s string) (Rate, error) {
	text := strings.ToLower(strings.TrimSpace(s))
	perSeconds := 1.0
	if i := strings.IndexByte(text, '/'); i >= 0 {
		p, ok := units[strings.TrimSpace(text[i+1:])]
		if !ok {
			return 0, fmt.Errorf("rate %q: unknown unit after /: use s, m or h", s)
		}
		perSeconds, text = p, strings.TrimSpace(text[:i])
	}
	text = strings.TrimSuffix(text, "r")
	n, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || math.IsNaN(n) || math.IsInf(n, 0):
		return 0, fmt.Errorf("rate %q: write a number with an optional unit, e.g. 1000/s or 240r/m", s)
	case n < 0:
		return 0, fmt.Errorf("rate %q is negative", s)
	}
	r := Rate(n / perSeconds)
	if r > maxRate {
		return 0, fmt.Errorf("rate %q is above %s", s, maxRate)
	}
	return r, nil
}

// String prints per minute when that is a whole number and the per-second figure is not
// (240/m, not 4/s … but 250/m, not 4.1667/s), else per second.
func (r Rate) String() string {
	perMin := float64(r) * 60
	// 250/m is 4.1666…/s, and back ×60 gives 250.00000000000003: whole within rounding.
	if float64(r) != math.Trunc(float64(r)) && math.Abs(perMin-math.Round(perMin)) <= 1e-9*perMin {
		return strconv.FormatFloat(math.Round(perMin), 'f', -1, 64) + "/m"
	}
	return strconv.FormatFloat(float64(r), 'f', -1, 64) + "/s"
}
