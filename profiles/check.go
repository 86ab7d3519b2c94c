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

// value returns t[key] as a T; ok is false when absent or of another type (recorded: it must be
// want, written as example).
func value[T any](c *checker, t table, path, key, want, example string) (T, bool) {
	return valueAs(c, t, path, key, want, example, func(v any) (T, bool) {
		x, ok := v.(T)
		return x, ok
	})
}

// valueAs returns t[key] read by as; ok is false when absent or when as refuses it (recorded:
// it must be want, written as example).
func valueAs[T any](c *checker, t table, path, key, want, example string, as func(any) (T, bool)) (T, bool) {
	v, ok := t[key]
	if !ok {
		var zero T
		return zero, false
	}
	x, ok := as(v)
	if !ok {
		c.typeErr(joinPath(path, key), v, want, example)
	}
	return x, ok
}

// subTable returns t[key] as a table; absent gives nil, false.
func (c *checker) subTable(t table, path, key, example string) (table, bool) {
	return value[table](c, t, path, key, "a table", example)
}

// str returns t[key] as a string; ok is false when absent or invalid (invalid is recorded).
func (c *checker) str(t table, path, key, example string) (string, bool) {
	return value[string](c, t, path, key, "a string", example)
}

// integer returns t[key] as an int64 within [lo, hi].
func (c *checker) integer(t table, path, key string, lo, hi int64, example string) (int64, bool) {
	n, ok := valueAs(c, t, path, key, "a whole number", example, wholeNumber)
	if !ok {
		return 0, false
	}
	if n < lo || n > hi {
		c.addf(joinPath(path, key), "%d is out of range: use a value from %d to %d", n, lo, hi)
		return 0, false
	}
	return n, true
}

// wholeNumber reads a TOML integer, or a float that is a whole number: 128.0 is one; accept it.
func wholeNumber(v any) (int64, bool) {
	if n, ok := v.(int64); ok {
		return n, true
	}
	if f, isFloat := v.(float64); isFloat && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f), true
	}
	return 0, false
}

// boolean returns t[key] as a bool.
func (c *checker) boolean(t table, path, key, example string) (bool, bool) {
	return value[bool](c, t, path, key, "true or false", example)
}

// duration returns t[key], a Go duration string such as "5s", between 0 and maxPlanTime.
// Whether 0 is acceptable is the caller's decision.
func (c *checker) duration(t table, path, key, example string) (time.Duration, bool) {
	s, ok := value[string](c, t, path, key, "a duration in quotes", example)
	if !ok {
		return 0, false
	}
	field := joinPath(path, key)
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
	s, ok := valueAs(c, t, path, key, "a rate", `"500/s", "240/m" or a plain number per second`, rateText)
	if !ok {
		return 0, false
	}
	r, err := engine.ParseRate(s)
	if err != nil {
		// engine's message starts with `rate "…"`; the field name already says it is a rate.
		c.addErr(joinPath(path, key), err, "%s", strings.TrimPrefix(err.Error(), "rate "))
		return 0, false
	}
	return r, true
}

// rateText is a rate's value as ParseRate reads it: a string as written, a number as text.
func rateText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
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
