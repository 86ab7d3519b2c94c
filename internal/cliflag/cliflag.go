// Package cliflag is how rpcstress's commands read their flags: the standard flag package,
// with flags before or after the positional arguments, errors reworded for people (one line,
// the flag as --name, a "did you mean" for a typo, what a value needs) instead of the flag
// package's "parse error" and a page of usage, and help that fits 80 columns.
package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/internal/suggest"
)

// Parse parses args with fs; flags may stand before or after the positional arguments
// (`rpcstress p.toml --rate 100/s` reads as naturally as the other order), and "--" ends the
// flags. It returns the positional arguments, flag.ErrHelp for -h, -help or --help, or an
// error of one line that names the flag as the user wrote it and says how to fix it. fs is set
// to print nothing: the caller prints the error, and the help when it is asked for.
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, reword(fs, err)
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil // "--" ended the flags: the rest is positional
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// The flag package's error texts (Go 1.26, src/flag/flag.go failf calls); reword reads them
// back, since the package has no typed errors. An unknown text is passed on as it is.
const (
	undefined  = "flag provided but not defined: -"
	needsValue = "flag needs an argument: -"
	badSyntax  = "bad flag syntax: "
)

// reword turns one of the flag package's errors into a line for people.
func reword(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, undefined):
		name := strings.TrimPrefix(msg, undefined)
		if s := suggest.Closest(name, names(fs)); s != "" {
			return fmt.Errorf("unknown flag %s: did you mean %s?", Dashed(name), Dashed(s))
		}
		return fmt.Errorf("unknown flag %s", Dashed(name))
	case strings.HasPrefix(msg, needsValue):
		name := strings.TrimPrefix(msg, needsValue)
		return fmt.Errorf("%s needs a value: %s %s", Dashed(name), Dashed(name), valueName(fs.Lookup(name)))
	case strings.HasPrefix(msg, badSyntax):
		return fmt.Errorf("%s: write a flag as --name or --name=value", strings.TrimPrefix(msg, badSyntax))
	}
	if name, value, cause, ok := invalidValue(msg); ok {
		f := fs.Lookup(name)
		flag := Dashed(name)
		if isBool(f) {
			return fmt.Errorf("%s=%s: a switch takes true or false", flag, value)
		}
		return fmt.Errorf("%s %s: %s", flag, value, valueProblem(f, cause))
	}
	return err
}

// invalidValue reads `invalid value "V" for flag -N: CAUSE` and, for booleans,
// `invalid boolean value "V" for -N: CAUSE`.
func invalidValue(msg string) (name, value, cause string, ok bool) {
	rest, found := strings.CutPrefix(msg, "invalid value ")
	if !found {
		if rest, found = strings.CutPrefix(msg, "invalid boolean value "); !found {
			return "", "", "", false
		}
	}
	var quoted string
	if _, err := fmt.Sscanf(rest, "%q", &quoted); err != nil {
		return "", "", "", false
	}
	// Sscanf stops after the quoted string; find where it ended to read the rest.
	q := fmt.Sprintf("%q", quoted)
	rest, found = strings.CutPrefix(rest, q)
	if !found {
		return "", "", "", false
	}
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, " for flag -"), " for -")
	name, cause, ok = strings.Cut(rest, ": ")
	return name, quoted, cause, ok
}

// valueProblem says what is wrong with a flag's value: the Value's own words when it has them
// (Duration's), else by the type of the flag instead of the flag package's "parse error".
func valueProblem(f *flag.Flag, cause string) string {
	if f == nil || cause != "parse error" && cause != "value out of range" {
		return cause
	}
	g, _ := f.Value.(flag.Getter)
	if g == nil {
		return cause
	}
	switch g.Get().(type) {
	case int, int64:
		if cause == "value out of range" {
			return "too large"
		}
		return "not a whole number, e.g. 64"
	case uint, uint64:
		return "not a whole number of 0 or more, e.g. 64"
	case float64:
		return "not a number, e.g. 1.5"
	}
	return cause
}

// isBool reports a flag that needs no value.
func isBool(f *flag.Flag) bool {
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// valueName is what a flag's value is called in help: the `quoted` word of its usage
// ("--out FILE"), else its kind.
func valueName(f *flag.Flag) string {
	if f == nil {
		return "VALUE"
	}
	if _, ok := f.Value.(durationValue); ok {
		return "DURATION"
	}
	switch name, _ := flag.UnquoteUsage(f); name {
	case "", "value", "string":
		return "VALUE"
	case "int", "uint":
		return "N"
	case "float":
		return "NUMBER"
	default:
		return strings.ToUpper(name)
	}
}

// names lists fs's flags, for "did you mean".
func names(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, f.Name) })
	return out
}

// durationValue is a time.Duration flag whose errors say what a duration needs.
type durationValue struct{ d *time.Duration }

// DurationVar defines a duration flag, like flag.FlagSet.DurationVar, whose errors read
// "--duration 5: needs a unit: 5s, 5m (units: ms, s, m, h)" rather than "parse error".
func DurationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var(durationValue{p}, name, usage)
}

func (v durationValue) String() string {
	if v.d == nil {
		return "0s"
	}
	return v.d.String()
}

// Get makes durationValue a flag.Getter, as the flag package's own duration is.
func (v durationValue) Get() any { return *v.d }

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err == nil {
		*v.d = d
		return nil
	}
	if isNumber(s) {
		return fmt.Errorf("needs a unit: %ss, %sm (units: ms, s, m, h)", s, s)
	}
	return errors.New("not a duration, e.g. 30s (units: ms, s, m, h)")
}

// isNumber reports a plain decimal number, as people write a duration without its unit.
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits, dots := 0, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}
