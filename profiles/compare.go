package profiles

import (
	"slices"
	"strconv"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// Answers compared (issue 17): with several targets, compare_answers = true (or --equality)
// compares each request's answers from the targets (package engine/answers):
//
//	compare_answers = true
//	compare_numbers = "value"          # "0x1b4" = 436; default "exact": a hex string is a string
//	compare_keep = 5                   # mismatches kept per request, with both answers
//	compare_ignore = ["result.timestamp"]   # left out of every request's comparison
//	[[request]]
//	method = "eth_getBlockByNumber"
//	compare_ignore = ["result.hash"]   # … and of this one's, on top
//
// The keys other than compare_answers are read whether or not it is set: --equality turns
// the comparison on from the command line, with the profile's settings.

// maxCompareKeep bounds compare_keep: each kept example holds a request and two answers of
// up to 4 KiB each, per request of the mix.
const maxCompareKeep = 100

// compareNumbers are the values of compare_numbers: "exact" compares JSON as written
// (numbers by value, a hex string as a string), "value" a 0x-hex string as the number it
// writes.
func compareNumbers() []string { return []string{"exact", "value"} }

// compareSettings is what the compare_* keys of the profile's top say.
type compareSettings struct {
	on      bool
	options answers.Options // Keep, NumbersByValue; Targets and Ignore are filled later
	ignore  []string        // compare_ignore of the top: every request's
}

// compare reads compare_answers, compare_numbers, compare_keep and compare_ignore of the
// profile's top. Comparing needs several targets: compare_answers with none is refused here
// (targets is how many [[target]] tables the profile has).
func (c *checker) compare(doc table, targets int) compareSettings {
	var s compareSettings
	if b, ok := c.boolean(doc, "", "compare_answers", "compare_answers = true"); ok {
		s.on = b
		if b && targets == 0 {
			c.addf("compare_answers", "compares the answers of several targets, and the profile has one (url): replace url with 2 to 4 [[target]] tables (name, url), or remove compare_answers and give the targets on the command line: --url a=URL --url b=URL --equality")
		}
	}
	if v, ok := c.str(doc, "", "compare_numbers", `compare_numbers = "value"`); ok {
		switch v {
		case "exact":
		case "value":
			s.options.NumbersByValue = true
		default:
			hint := ""
			if sg := suggest.Closest(v, compareNumbers()); sg != "" {
				hint = `did you mean "` + sg + `"? `
			}
			c.addf("compare_numbers", `%q: %suse "exact" (numbers by value, a hex string as a string: the default) or "value" (a hex string "0x1b4" equals the number 436)`, v, hint)
		}
	}
	if n, ok := c.integer(doc, "", "compare_keep", 1, maxCompareKeep, "compare_keep = 5"); ok {
		s.options.Keep = int(n)
	}
	s.ignore = c.ignorePaths(doc, "")
	return s
}

// ignorePaths reads compare_ignore of the table t at path: a list of paths into an answer
// ("result.timestamp", "result.transactions.*.hash", "result.0.slot").
func (c *checker) ignorePaths(t table, path string) []string {
	v, ok := t["compare_ignore"]
	if !ok {
		return nil
	}
	field := joinPath(path, "compare_ignore")
	const example = `compare_ignore = ["result.timestamp"]`
	list, ok := v.([]any)
	if !ok {
		c.typeErr(field, v, "a list of paths", example)
		return nil
	}
	var out []string
	for i, e := range list {
		f := field + "[" + strconv.Itoa(i+1) + "]"
		p, ok := e.(string)
		if !ok {
			c.typeErr(f, e, "a path in quotes", example)
			continue
		}
		if err := answers.CheckIgnorePath(p); err != nil { // the comparer's own syntax
			c.addErr(f, err, "%s", err.Error())
			continue
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// compareOptions are the answers.Options of a run: the settings, with the paths to ignore
// per request name (the profile's compare_ignore, then the request's own), and the targets'
// names. Each request's paths are held to the comparer's own bounds (answers.New, so that a
// run never fails to start on them), at the request's compare_ignore or else the profile's.
func (c *checker) compareOptions(s compareSettings, reqs []engine.Request, info []requestInfo, targets []engine.Target) answers.Options {
	o := s.options
	told := map[string]bool{}
	for _, t := range targets {
		o.Targets = append(o.Targets, t.Name)
	}
	for i, r := range reqs {
		paths := slices.Clone(s.ignore)
		if i < len(info) {
			for _, p := range info[i].CompareIgnore {
				if !slices.Contains(paths, p) {
					paths = append(paths, p)
				}
			}
		}
		if len(paths) == 0 {
			continue
		}
		field := "compare_ignore" // the profile's paths alone: said once, of the first request
		if i < len(info) && info[i].ignoreField != "" {
			field = info[i].ignoreField
		}
		if !told[field] {
			if err := ignoreFits(r.Name, paths); err != nil {
				c.addErr(field, err, "%v", err)
				told[field] = true
			}
		}
		if o.Ignore == nil {
			o.Ignore = map[string][]string{}
		}
		o.Ignore[r.Name] = paths
	}
	return o
}

// ignoreFits holds one request's paths to the comparer's bounds: answers.New is their owner.
func ignoreFits(request string, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	_, err := answers.New(answers.Options{Targets: []string{"a", "b"}, Ignore: map[string][]string{request: paths}})
	return err
}
