package profiles

import (
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// expectWords are the rules written as one word, and "none" for no rules.
func expectWords() []string { return []string{"result", "nonempty", "none"} }

func expectKeys() []string { return []string{"path", "present", "nonempty", "equals", "matches"} }

// expectHow is how rules are written, for messages.
const expectHow = `write expect = "result" (a result that is not null), "nonempty" (nor "", [] or {}), ` +
	`"none", or a table: expect = {path = "result.hash", matches = "^0x"}`

// expectRules is what an expect key says: rules (none for expect = "none"), or nothing
// (given false) when the key is absent.
type expectRules struct {
	rules []*engine.ExpectRule
	given bool
}

// expect reads the expect key of t at path: a word, a table, or a list of them. ok is false
// when it is invalid (recorded).
func (c *checker) expect(t table, path string) (expectRules, bool) {
	v, present := t["expect"]
	if !present {
		return expectRules{}, true
	}
	field := joinPath(path, "expect")
	var rules []*engine.ExpectRule
	ok := true
	switch x := v.(type) {
	case string:
		if x == "none" {
			return expectRules{given: true}, true
		}
		rules, ok = c.expectWord(x, field)
	case table:
		rules, ok = c.expectTable(x, field)
	case []table, []any:
		list, _ := v.([]any)
		if tl, isTables := v.([]table); isTables {
			for _, e := range tl {
				list = append(list, e)
			}
		}
		if len(list) == 0 {
			c.addf(field, `is empty: list at least one rule, or write expect = "none" for no rules`)
			return expectRules{}, false
		}
		for i, e := range list {
			r, eok := c.expectOne(e, field+"["+strconv.Itoa(i+1)+"]")
			rules, ok = append(rules, r...), ok && eok
		}
	default:
		c.typeErr(field, v, "a rule", `expect = "result", or a table: expect = {path = "result.hash", matches = "^0x"}`)
		return expectRules{}, false
	}
	return expectRules{rules: rules, given: true}, ok
}

// expectOne reads one element of a list of rules: a word or a table.
func (c *checker) expectOne(v any, field string) ([]*engine.ExpectRule, bool) {
	switch x := v.(type) {
	case string:
		if x == "none" {
			c.addf(field, `"none" in a list of rules: write expect = "none" alone for no rules, or remove it`)
			return nil, false
		}
		return c.expectWord(x, field)
	case table:
		return c.expectTable(x, field)
	}
	c.typeErr(field, v, "a rule", `"result" or a table {path = "result.hash", matches = "^0x"}`)
	return nil, false
}

// expectWord reads a rule written as a word: "result" or "nonempty".
func (c *checker) expectWord(w, field string) ([]*engine.ExpectRule, bool) {
	var kind engine.ExpectKind
	switch w {
	case "result":
		kind = engine.ExpectPresent
	case "nonempty":
		kind = engine.ExpectNonEmpty
	default:
		if s := suggest.Closest(w, expectWords()); s != "" {
			c.addf(field, "%q is not a rule: did you mean %q? (%s)", w, s, expectHow)
		} else {
			c.addf(field, "%q is not a rule: %s", w, expectHow)
		}
		return nil, false
	}
	r, err := engine.NewExpectRule(kind, "result", nil)
	if err != nil { // "result" always parses; kept for safety
		c.addErr(field, err, "%v", err)
		return nil, false
	}
	return []*engine.ExpectRule{r}, true
}

// expectTable reads a rule table: a path (default "result") and one or more conditions on it,
// each a rule, checked in the order present, nonempty, equals, matches.
func (c *checker) expectTable(t table, field string) ([]*engine.ExpectRule, bool) {
	c.unknownKeys(t, field, expectKeys())
	path := "result"
	if p, has := c.str(t, field, "path", `path = "result.transactions"`); has {
		if _, err := engine.ParseExpectPath(p); err != nil {
			c.addErr(field+".path", err, "%v", err)
			return nil, false
		}
		path = p
	} else if _, present := t["path"]; present {
		return nil, false
	}
	var rules []*engine.ExpectRule
	ok := true
	add := func(key string, kind engine.ExpectKind, want any) {
		r, err := engine.NewExpectRule(kind, path, want)
		if err != nil {
			c.addErr(field+"."+key, err, "%v", err)
			ok = false
			return
		}
		rules = append(rules, r)
	}
	if present, has := c.boolean(t, field, "present", "present = true"); has {
		if present {
			add("present", engine.ExpectPresent, nil)
		} else {
			add("present", engine.ExpectAbsent, nil)
		}
	} else if _, given := t["present"]; given {
		ok = false
	}
	if nonempty, has := c.boolean(t, field, "nonempty", "nonempty = true"); has {
		if !nonempty {
			c.addf(field+".nonempty", "false checks nothing: remove it, or write present = false to expect the value missing")
			ok = false
		} else {
			add("nonempty", engine.ExpectNonEmpty, nil)
		}
	} else if _, given := t["nonempty"]; given {
		ok = false
	}
	if want, has := t["equals"]; has {
		add("equals", engine.ExpectEquals, want)
	}
	if want, has := t["matches"]; has {
		add("matches", engine.ExpectMatches, want)
	}
	if len(rules) == 0 && ok {
		c.addf(field, "says nothing to check: add present = true, nonempty = true, equals = … or matches = \"…\" (on path = %q)", path)
		return nil, false
	}
	return rules, ok
}

// expectLabels are the labels of rules, for people (validate, the snapshot's profile).
func expectLabels(rules []*engine.ExpectRule) string {
	labels := make([]string, len(rules))
	for i, r := range rules {
		labels[i] = r.Label
	}
	return strings.Join(labels, "; ")
}
