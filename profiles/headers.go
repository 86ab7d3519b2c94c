package profiles

import (
	"cmp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rpcstress/rpcstress/engine"
)

// headers reads [headers] (in file order, which md.Keys keeps) and the top-level secret list,
// resolves ${VAR}s, decides which values are secret, and adds Content-Type: application/json
// unless the profile sets a Content-Type itself. It returns the secret list too: it names
// the headers of the [[target]] tables as well (see targetHeaders).
func (c *checker) headers(doc table, keys []toml.Key, getenv func(string) (string, bool)) ([]engine.Header, []string) {
	const example = `[headers] "X-Api-Key" = "${API_KEY}"`
	t, _ := c.subTable(doc, "", "headers", example)
	names := make([]string, 0, len(t))
	for _, k := range keys {
		if len(k) == 2 && k[0] == "headers" {
			if _, ok := t[k[1]]; ok && !slices.Contains(names, k[1]) {
				names = append(names, k[1])
			}
		}
	}
	var missed []string // defensive: anything the key list missed, in a stable order
	for k := range t {
		if !slices.Contains(names, k) {
			missed = append(missed, k)
		}
	}
	slices.Sort(missed)
	names = append(names, missed...)

	secret := c.secretList(doc, append(slices.Clone(names), targetHeaderNames(doc)...))
	out := c.headerValues(t, "headers", names, secret, getenv)
	if !slices.ContainsFunc(out, func(h engine.Header) bool { return strings.EqualFold(h.Name, "Content-Type") }) {
		out = append([]engine.Header{{Name: "Content-Type", Value: "application/json"}}, out...)
	}
	return out, secret
}

// headerValues reads the headers names of the table t at path (a profile's [headers], a
// target's headers): each name checked, ${VAR}s resolved, and marked secret when a variable
// made it, its name says so or the secret list names it.
func (c *checker) headerValues(t table, path string, names, secret []string, getenv func(string) (string, bool)) []engine.Header {
	var out []engine.Header
	for _, name := range names {
		field := path + "." + name
		raw, ok := c.str(t, path, name, `"`+name+`" = "value" (quote names that contain dots)`)
		if !ok {
			continue
		}
		if !isHeaderName(name) {
			c.addf(field, "%q is not a valid header name: use letters, digits and -", name)
			continue
		}
		val, used, ok := c.env(field, raw, getenv)
		if !ok {
			continue
		}
		if strings.ContainsAny(val, "\r\n\x00") {
			c.addf(field, "the value contains a line break or NUL byte, which would split the request: remove it (check the environment variables it uses)")
			continue
		}
		isSecret := len(used) > 0 || secretName(name) || slices.ContainsFunc(secret, func(s string) bool { return strings.EqualFold(s, name) })
		out = append(out, engine.Header{Name: name, Value: val, Secret: isSecret})
	}
	return out
}

// namesByLine are the keys of t in the order the file writes them (lines of path.key; keys
// of one line, an inline table's, by name): the order headers are sent in.
func (c *checker) namesByLine(t table, path string) []string {
	names := make([]string, 0, len(t))
	for k := range t {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(c.lines.line(path+"."+a), c.lines.line(path+"."+b)), cmp.Compare(a, b))
	})
	return names
}

// targetHeaderNames are the header names of every [[target]] table, as written, for the
// secret list to name.
func targetHeaderNames(doc table) []string {
	list, _ := tables(doc["target"])
	var out []string
	for _, t := range list {
		h, _ := t["headers"].(table)
		for k := range h {
			out = append(out, k)
		}
	}
	return out
}

// secretList reads secret = ["X-Header", …]: more headers whose values must never be shown.
func (c *checker) secretList(doc table, headers []string) []string {
	v, ok := doc["secret"]
	if !ok {
		return nil
	}
	const example = `secret = ["X-My-Header"]`
	list, ok := v.([]any)
	if !ok {
		c.typeErr("secret", v, "a list of header names", example)
		return nil
	}
	var out []string
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			c.typeErr("secret", e, "a list of header names", example)
			continue
		}
		if !slices.ContainsFunc(headers, func(h string) bool { return strings.EqualFold(h, s) }) {
			c.addf("secret", "%q is not a header in [headers] or a [[target]]'s headers: add it there or remove it from secret", s)
			continue
		}
		out = append(out, s)
	}
	return out
}

// secretName reports whether a header's name says its value is a credential.
func secretName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "authorization", "proxy-authorization", "cookie":
		return true
	}
	for _, w := range []string{"key", "token", "secret", "auth", "password", "session"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// isHeaderName reports whether s is an HTTP header name (an RFC 9110 token).
func isHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isBareKeyByte(c) || strings.IndexByte("!#$%&'*+.^`|~", c) >= 0) {
			return false
		}
	}
	return true
}
