package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Rate is a request rate in requests per second.
type Rate float64

// MaxRate bounds what ParseRate accepts; beyond it a typo is likelier than a plan.
const MaxRate Rate = 10_000_000

// ParseRate reads a rate written as "500/s", "240/m", "3600/h", nginx-style "240r/m", or a plain
// number meaning per second. Zero is allowed (a pause stage); negative, NaN and absurd values are
// not.
func ParseRate(s string) (Rate, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return 0, fmt.Errorf("empty rate: write it as 500/s, 240/m or a plain number per second")
	}
	num, unit, hasUnit := strings.Cut(in, "/")
	num = strings.TrimSpace(num)
	num = strings.TrimSuffix(num, "r") // nginx writes 240r/m
	per := 1.0
	if hasUnit {
		switch strings.ToLower(strings.TrimSpace(unit)) {
		case "s", "sec", "second":
			per = 1
		case "m", "min", "minute":
			per = 60
		case "h", "hour":
			per = 3600
		default:
			return 0, fmt.Errorf("rate %q: unknown unit %q: use /s, /m or /h", s, unit)
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("rate %q: %q is not a number: write it as 500/s, 240/m or a plain number per second", s, num)
	}
	if v < 0 {
		return 0, fmt.Errorf("rate %q is negative: a rate is 0 or more requests per second", s)
	}
	r := Rate(v / per)
	if r > MaxRate {
		return 0, fmt.Errorf("rate %q is above the maximum of %s", s, MaxRate)
	}
	return r, nil
}

// PerSecond returns the rate as a float64 number of requests per second.
func (r Rate) PerSecond() float64 { return float64(r) }

// Interval is the time between two sends at this rate; zero for a zero rate.
func (r Rate) Interval() time.Duration {
	if r <= 0 {
		return 0
	}
	return time.Duration(float64(time.Second) / float64(r))
}

// String writes the rate the way people wrote it: per second when that is a whole number or
// large, per minute or per hour when only that figure is whole (240/m rather than 4/s is the
// same, but 250/m reads better than 4.1667/s, and 100/h better than 0.02778/s), else per second
// to ten significant digits. Reports, snapshots and `validate` print it and people copy it into
// profiles, so it always reads back through ParseRate to the same rate (within 1e-9 relative;
// FuzzParseRate holds it to that).
func (r Rate) String() string {
	ps := float64(r)
	if ps != math.Trunc(ps) && ps < 100 {
		for _, u := range [...]struct {
			per  float64
			unit string
		}{{60, "/m"}, {3600, "/h"}} {
			if n := ps * u.per; math.Abs(n-math.Round(n)) <= 1e-12*n {
				return strconv.FormatFloat(math.Round(n), 'f', -1, 64) + u.unit
			}
		}
	}
	return strconv.FormatFloat(ps, 'g', 10, 64) + "/s"
}
