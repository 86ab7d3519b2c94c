package profiles

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// table is a TOML table as the decoder hands it over.
type table = map[string]any

// checker reads values out of the decoded document, type-checking each one and recording every
// problem with its line, so that one bad value never hides the next.
type checker struct {
	file     string
	lines    lineIndex
	problems []*Problem
}

// addf records a problem at field's line.
func (c *checker) addf(field, format string, args ...any) {
	c.problems = append(c.problems, &Problem{File: c.file, Line: c.lines.line(field), Field: field, Msg: fmt.Sprintf(format, args...)})
}

// addAt records a problem in another file (a target file), at its own line.
func (c *checker) addAt(file string, line int, field, msg string) {
	c.problems = append(c.problems, &Problem{File: file, Line: max(line, 1), Field: field, Msg: msg})
}

// addErr records a problem with an underlying cause.
func (c *checker) addErr(field string, err error, format string, args ...any) {
	c.addf(field, format, args...)
	c.problems[len(c.problems)-1].Err = err
}

// typeErr records a value of the wrong type, showing how it should be written.
func (c *checker) typeErr(field string, v any, want, example string) {
	c.addf(field, "must be %s, not %s: write it as %s", want, describeValue(v), example)
}

// unknownKeys reports every key of t that is not in valid, suggesting the closest valid one.
func (c *checker) unknownKeys(t table, path string, valid []string) {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if slices.Contains(valid, k) {
			continue
		}
		field := joinPath(path, k)
		if s := suggest.Closest(k, valid); s != "" {
			c.addf(field, "unknown key: did you mean %q?", s)
		} else {
			c.addf(field, "unknown key: remove it, or use one of: %s", strings.Join(valid, ", "))
		}
	}
}

// subTable returns t[key] as a table; absent gives nil, false.
func (c *checker) subTable(t table, path, key, example string) (table, bool) {
	v, ok := t[key]
	if !ok {
		return nil, false
	}
	if sub, ok := v.(table); ok {
		return sub, true
	}
	c.typeErr(joinPath(path, key), v, "a table", example)
	return nil, false
}

// str returns t[key] as a string; ok is false when absent or invalid (invalid is recorded).
func (c *checker) str(t table, path, key, example string) (string, bool) {
	v, ok := t[key]
	if !ok {
		return "", false
	}
	if s, ok := v.(string); ok {
		return s, true
	}
	c.typeErr(joinPath(path, key), v, "a string", example)
	return "", false
}

// integer returns t[key] as an int64 within [lo, hi].
func (c *checker) integer(t table, path, key string, lo, hi int64, example string) (int64, bool) {
	v, ok := t[key]
	if !ok {
		return 0, false
	}
	field := joinPath(path, key)
	n, ok := v.(int64)
	if !ok {
		if f, isFloat := v.(float64); isFloat && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			n, ok = int64(f), true // 128.0 is a whole number; accept it
		}
	}
	if !ok {
		c.typeErr(field, v, "a whole number", example)
		return 0, false
	}
	if n < lo || n > hi {
		c.addf(field, "%d is out of range: use a value from %d to %d", n, lo, hi)
		return 0, false
	}
	return n, true
}

// boolean returns t[key] as a bool.
func (c *checker) boolean(t table, path, key, example string) (bool, bool) {
	v, ok := t[key]
	if !ok {
		return false, false
	}
	if b, ok := v.(bool); ok {
		return b, true
	}
	c.typeErr(joinPath(path, key), v, "true or false", example)
	return false, false
}

// duration returns t[key], a Go duration string such as "5s", between 0 and maxPlanTime.
// Whether 0 is acceptable is the caller's decision.
func (c *checker) duration(t table, path, key, example string) (time.Duration, bool) {
	v, ok := t[key]
	if !ok {
		return 0, false
	}
	field := joinPath(path, key)
	s, ok := v.(string)
	if !ok {
		c.typeErr(field, v, "a duration in quotes", example)
		return 0, false
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil:
		c.addErr(field, err, "%q is not a duration: write a number with a unit, e.g. %s (units: ms, s, m, h)", s, example)
		return 0, false
	case d < 0:
		c.addf(field, "%q is negative: durations are 0 or more", s)
		return 0, false
	case d > maxPlanTime:
		c.addf(field, "%q is longer than the maximum of %s", s, maxPlanTime)
		return 0, false
	}
	return d, true
}

// rate returns t[key] as a rate: "500/s", "240/m", "3600/h" or a plain number per second.
func (c *checker) rate(t table, path, key string) (engine.Rate, bool) {
	v, ok := t[key]
	if !ok {
		return 0, false
	}
	field := joinPath(path, key)
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int64:
		s = strconv.FormatInt(x, 10)
	case float64:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	default:
		c.typeErr(field, v, "a rate", `"500/s", "240/m" or a plain number per second`)
		return 0, false
	}
	r, err := engine.ParseRate(s)
	if err != nil {
		// engine's message starts with `rate "…"`; the field name already says it is a rate.
		c.addErr(field, err, "%s", strings.TrimPrefix(err.Error(), "rate "))
		return 0, false
	}
	return r, true
}

// tables returns v as a list of tables: [[x]] blocks or an inline array of inline tables.
func tables(v any) ([]table, bool) {
	switch x := v.(type) {
	case []table:
		return x, true
	case []any:
		out := make([]table, len(x))
		for i, e := range x {
			t, ok := e.(table)
			if !ok {
				return nil, false
			}
			out[i] = t
		}
		return out, true
	}
	return nil, false
}

// describeValue names a decoded TOML value's type and shows it briefly, for type errors.
func describeValue(v any) string {
	switch x := v.(type) {
	case string:
		return "a string " + clip(strconv.Quote(x), 40)
	case int64:
		return fmt.Sprintf("an integer %d", x)
	case float64:
		return fmt.Sprintf("a float %g", x)
	case bool:
		return fmt.Sprintf("a boolean %t", x)
	case time.Time:
		return "a date-time"
	case table:
		return "a table"
	case []table:
		return "an array of tables"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

// clip shortens s to at most n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
