package profiles

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// requestInfo is what the engine does not need but people do: where a request's body came from.
type requestInfo struct {
	// RPCMethod is the JSON-RPC method, also when read out of a raw body; "batch" for arrays.
	RPCMethod string
	// Source is "method", "batch", "body", "body_file:<path>" or "targets:<file>:<line>".
	Source string
	// Expect are the labels of the request's expect rules, each once.
	Expect []string
	// CompareIgnore are the request's own compare_ignore paths (see compare.go), written at
	// ignoreField ("request[3].compare_ignore"; "" when it has none).
	CompareIgnore []string
	ignoreField   string
}

// mixEntry is one request of the mix as the loader builds it.
type mixEntry struct {
	req   engine.Request
	info  requestInfo
	named bool // the name was given explicitly, so it is kept as written
}

// requests reads the [[request]] tables into the weighted mix. With a target file (hasTargets)
// the tables are optional.
func (c *checker) requests(doc table, tc *templateCompiler, hasTargets bool) []mixEntry {
	v, ok := doc["request"]
	if !ok {
		if _, has := doc["expect"]; has && hasTargets {
			c.addf("expect", "checks the answers of [[request]] tables, and the profile has none: the target file's requests are not checked; remove expect")
		}
		if !hasTargets {
			c.addf("request", `no requests: add at least one [[request]] table with method = "getBalance" (JSON-RPC), body = '…' or body_file = "…", or a target file: targets = "targets.txt"`)
		}
		return nil
	}
	list, ok := tables(v)
	if !ok {
		c.typeErr("request", v, "a list of [[request]] tables", "[[request]] (double brackets), then method = \"getBalance\"")
		return nil
	}
	if len(list) == 0 && !hasTargets {
		c.addf("request", `is empty: add at least one [[request]] table with method = "getBalance"`)
		return nil
	}
	var (
		out      []mixEntry
		explicit = map[string]int{} // name → number of the request that chose it
		all      []asked
	)
	dflt, _ := c.expect(doc, "") // the rules of every request without its own
	if len(dflt.rules) > 0 && hasTargets {
		c.addf("expect", "checks the [[request]] tables' answers, and the target file's would go unchecked: write expect into each [[request]] instead")
	}
	for i, t := range list {
		path := "request[" + strconv.Itoa(i+1) + "]"
		c.unknownKeys(t, path, requestKeys())
		req, info, a, ok := c.request(t, path, tc, dflt)
		if info.CompareIgnore = c.ignorePaths(t, path); info.CompareIgnore != nil {
			info.ignoreField = path + ".compare_ignore"
		}
		all = append(all, a)
		if !ok {
			continue
		}
		if name, hasName := c.str(t, path, "name", `name = "balance-hot"`); hasName && strings.TrimSpace(name) == "" {
			c.addf(path+".name", "is empty: give the request a name, or drop the key to name it after its method")
		} else if hasName {
			if prev, dup := explicit[name]; dup {
				c.addf(path+".name", "%q is already the name of request[%d]: give each request its own name", name, prev)
			}
			explicit[name] = i + 1
			req.Name = name
		}
		out = append(out, mixEntry{req: req, info: info, named: explicit[req.Name] == i+1})
	}
	c.checkCosts(all, hasTargets)
	return out
}

// request reads one [[request]]: exactly one of method (+ params, + batch = N), a batch list,
// body or body_file, a weight, and what it asks of its answers and costs (see asks; dflt is
// the profile's expect). Template calls in params and body are compiled here. Each step
// records its own problems; the order of the steps is the order of the messages for one line,
// so it is kept.
func (c *checker) request(t table, path string, tc *templateCompiler, dflt expectRules) (engine.Request, requestInfo, asked, bool) {
	weight, weightOK := c.requestWeight(t, path)
	s, ok := c.requestSends(t, path)
	if !ok {
		return engine.Request{}, requestInfo{}, asked{}, false
	}
	req, info, ok := c.requestBody(t, path, tc, s)
	if !ok || !weightOK {
		return req, info, asked{}, false
	}
	req.Weight = weight
	s.count(&req, &info)
	// Answers are matched to the calls by id. The ids method and batch write are literal, so
	// the sample rendering has them all; a templated raw body may template its ids
	// ({{seq}}), so its ids are read from each rendering when it is sent.
	req.RPC = engine.ParseRPCCalls(req.Body)
	if req.RPC != nil && req.Template != nil && s.key == "body" {
		req.RPC.PerSend = true
	}
	a, ok := c.asks(t, path, s, &req, dflt)
	info.Expect = a.labels
	return req, info, a, ok
}

// requestWeight reads a request's weight, 1 when absent. A weight below 1 gets a message of
// its own: it is how people try to switch a request off, and the range alone does not say so.
func (c *checker) requestWeight(t table, path string) (int, bool) {
	if w, isInt := t["weight"].(int64); isInt && w < 1 {
		c.addf(path+".weight", "%d: a weight must be 1 or more (it is the request's share of the mix); remove the request to stop sending it", w)
		return 1, false
	}
	if n, ok := c.integer(t, path, "weight", 1, maxWeight, "weight = 3"); ok {
		return int(n), true
	}
	_, present := t["weight"]
	return 1, !present
}

// requestSends is what one [[request]] sends, once its keys agree.
type requestSends struct {
	// key is the one of method, batch (a list), body and body_file that says it.
	key string
	// batchN is batch = N: the method's call repeated N times in an array; 0 for none.
	batchN int
	// batchList is batch = [{…}, …]: the calls of a batch list.
	batchList []table
}

// requestSends checks that a request says what to send exactly once, and that params and
// batch = N go with a method. It stops at the first conflict: what follows from a request
// that is unclear about what it sends would only repeat the problem.
func (c *checker) requestSends(t table, path string) (requestSends, bool) {
	batchN, batchList, batchOK := c.batch(t, path)
	var given []string
	for _, k := range []string{"method", "body", "body_file", "batch"} {
		if _, ok := t[k]; ok && (k != "batch" || batchList != nil) {
			given = append(given, k)
		}
	}
	switch len(given) {
	case 0:
		if batchOK {
			c.addf(path, `says nothing to send: add method = "getBalance" (JSON-RPC), body = '{…}' or body_file = "body.json", or a batch list: batch = [{method = "getSlot"}, …]`)
		}
		return requestSends{}, false
	case 1:
	default:
		if given[0] == "method" && given[1] == "batch" {
			c.addf(path+".batch", "lists the calls of a batch, and method is set too: remove method, or write batch = N to send N calls of the method")
		} else {
			c.addf(joinPath(path, given[1]), "%s and %s are both set: a request sends one of method, body or body_file (or a batch list); split it into two [[request]] tables", given[0], given[1])
		}
		return requestSends{}, false
	}
	if _, ok := t["params"]; ok && given[0] != "method" {
		if given[0] == "batch" {
			c.addf(path+".params", `params go into each call of the batch list: batch = [{method = "getBalance", params = ["…"]}]`)
		} else {
			c.addf(path+".params", "params go with method (a JSON-RPC call), not with %s: put them into the body, or use method", given[0])
		}
	}
	if batchN > 0 && given[0] != "method" {
		c.addf(path+".batch", `batch = %d repeats a JSON-RPC method call: add method = "getBalance", or write the batch array into the body yourself`, batchN)
		return requestSends{}, false
	}
	return requestSends{key: given[0], batchN: batchN, batchList: batchList}, batchOK
}

// requestBody builds the body a request sends, its template when parts of it vary, and its
// name: method and batch calls are written here, a body is compiled, a body_file is sent as
// is (a file of JSON is data, not a template).
func (c *checker) requestBody(t table, path string, tc *templateCompiler, s requestSends) (engine.Request, requestInfo, bool) {
	var (
		req  engine.Request
		info requestInfo
		b    templateBuilder
	)
	switch s.key {
	case "method":
		m, ok := c.str(t, path, "method", `method = "getBalance"`)
		if !ok {
			return req, info, false
		}
		if strings.TrimSpace(m) == "" {
			c.addf(path+".method", `is empty: name the JSON-RPC method, e.g. method = "getBalance"`)
			return req, info, false
		}
		if !c.calls(&b, tc, []rpcCall{{method: m, params: t["params"], field: path + ".params"}}, max(s.batchN, 1), s.batchN > 0, path+".method") {
			return req, info, false
		}
		req.Name, info = m, requestInfo{RPCMethod: m, Source: "method"}
		if s.batchN > 0 {
			req.Name, info = batchName([]rpcCall{{method: m}}, s.batchN), requestInfo{RPCMethod: "batch", Source: "batch"}
		}
	case "batch":
		calls, ok := c.batchCalls(s.batchList, path)
		if !ok || !c.calls(&b, tc, calls, 1, true, path+".batch") {
			return req, info, false
		}
		req.Name, info = batchName(calls, len(calls)), requestInfo{RPCMethod: "batch", Source: "batch"}
	case "body":
		text, ok := c.str(t, path, "body", `body = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}'`)
		if !ok {
			return req, info, false
		}
		if err := tc.text(&b, text, escapeRaw); err != nil {
			c.addErr(path+".body", err, "%v", err)
			return req, info, false
		}
		req.Name, info = "body", requestInfo{Source: "body"}
	case "body_file":
		name, ok := c.str(t, path, "body_file", `body_file = "heavy.json"`)
		if !ok {
			return req, info, false
		}
		data, err := tc.src.readBody(name)
		if err != nil {
			c.addErr(path+".body_file", err, "%s", fileProblem(err, "put the file next to the profile (paths are relative to its folder) or fix the path"))
			return req, info, false
		}
		req.Body = data
		req.Name, info = "body_file:"+filepath.Base(name), requestInfo{Source: "body_file:" + name}
	}
	return req, info, c.finishBody(path, s.key, &b, &req)
}

// finishBody turns what requestBody wrote into b into the request's body and template (a
// body_file has its body already), and refuses an empty body: a request must send something.
func (c *checker) finishBody(path, key string, b *templateBuilder, req *engine.Request) bool {
	if key != "body_file" {
		body, tmpl, err := finishTemplate(b)
		if err != nil {
			c.addErr(joinPath(path, key), err, "%v", err)
			return false
		}
		req.Body = body
		if tmpl != nil { // a nil *bodyTemplate in the interface would not be a nil Template
			req.Template = tmpl
		}
	}
	if len(bytes.TrimSpace(req.Body)) == 0 {
		c.addf(joinPath(path, key), "the body is empty: write the JSON to send")
		return false
	}
	return true
}

// count sets the number of calls a request carries (its items) and, for a raw body, the
// JSON-RPC method read out of it.
func (s requestSends) count(req *engine.Request, info *requestInfo) {
	switch s.key {
	case "method":
		req.Items = max(s.batchN, 1)
	case "batch":
		req.Items = len(s.batchList)
	default:
		info.RPCMethod, req.Items = inspectBody(req.Body)
		if s.key == "body" && info.RPCMethod != "" && info.RPCMethod != "batch" {
			req.Name = info.RPCMethod // like method = …: a request is named after its JSON-RPC method
		}
	}
}

// inspectBody finds the JSON-RPC method of a raw body and its number of calls: a batch array
// holds one per element. Bodies that are not JSON are sent as is and count as one call.
func inspectBody(body []byte) (method string, items int) {
	var one struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(body, &one) == nil {
		return one.Method, 1
	}
	var batch []json.RawMessage
	if json.Unmarshal(body, &batch) == nil {
		return "batch", max(len(batch), 1)
	}
	return "", 1
}
