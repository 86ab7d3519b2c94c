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
	)
	for i, t := range list {
		path := "request[" + strconv.Itoa(i+1) + "]"
		c.unknownKeys(t, path, requestKeys())
		req, info, ok := c.request(t, path, tc)
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
	return out
}

// request reads one [[request]]: exactly one of method (+ params, + batch = N), a batch list,
// body or body_file, and a weight. Template calls in params and body are compiled here.
func (c *checker) request(t table, path string, tc *templateCompiler) (engine.Request, requestInfo, bool) {
	req := engine.Request{Weight: 1}
	var info requestInfo
	weightOK := true
	if w, isInt := t["weight"].(int64); isInt && w < 1 {
		c.addf(path+".weight", "%d: a weight must be 1 or more (it is the request's share of the mix); remove the request to stop sending it", w)
		weightOK = false
	} else if n, ok := c.integer(t, path, "weight", 1, maxWeight, "weight = 3"); ok {
		req.Weight = int(n)
	} else if _, present := t["weight"]; present {
		weightOK = false
	}
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
		return req, info, false
	case 1:
	default:
		if given[0] == "method" && given[1] == "batch" {
			c.addf(path+".batch", "lists the calls of a batch, and method is set too: remove method, or write batch = N to send N calls of the method")
		} else {
			c.addf(joinPath(path, given[1]), "%s and %s are both set: a request sends one of method, body or body_file (or a batch list); split it into two [[request]] tables", given[0], given[1])
		}
		return req, info, false
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
		return req, info, false
	}
	if !batchOK {
		return req, info, false
	}

	var b templateBuilder
	var body []byte // a body_file, sent as is; else compiled from b
	switch given[0] {
	case "method":
		m, ok := c.str(t, path, "method", `method = "getBalance"`)
		if !ok {
			return req, info, false
		}
		if strings.TrimSpace(m) == "" {
			c.addf(path+".method", `is empty: name the JSON-RPC method, e.g. method = "getBalance"`)
			return req, info, false
		}
		if !c.calls(&b, tc, []rpcCall{{method: m, params: t["params"], field: path + ".params"}}, max(batchN, 1), batchN > 0, path+".method") {
			return req, info, false
		}
		req.Name, info = m, requestInfo{RPCMethod: m, Source: "method"}
		if batchN > 0 {
			req.Name, info = batchName([]rpcCall{{method: m}}, batchN), requestInfo{RPCMethod: "batch", Source: "batch"}
		}
	case "batch":
		calls, ok := c.batchCalls(batchList, path)
		if !ok || !c.calls(&b, tc, calls, 1, true, path+".batch") {
			return req, info, false
		}
		req.Name, info = batchName(calls, len(calls)), requestInfo{RPCMethod: "batch", Source: "batch"}
	case "body":
		s, ok := c.str(t, path, "body", `body = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}'`)
		if !ok {
			return req, info, false
		}
		if err := tc.text(&b, s, escapeRaw); err != nil {
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
		body = data
		req.Name, info = "body_file:"+filepath.Base(name), requestInfo{Source: "body_file:" + name}
	}
	if given[0] != "body_file" {
		var tmpl *bodyTemplate
		var err error
		if body, tmpl, err = finishTemplate(&b); err != nil {
			c.addErr(joinPath(path, given[0]), err, "%v", err)
			return req, info, false
		}
		if tmpl != nil {
			req.Template = tmpl
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		c.addf(joinPath(path, given[0]), "the body is empty: write the JSON to send")
		return req, info, false
	}
	req.Body = body
	req.Items = 1
	if !weightOK {
		return req, info, false
	}
	switch given[0] {
	case "method":
		req.Items = max(batchN, 1)
	case "batch":
		req.Items = len(batchList)
	default:
		info.RPCMethod, req.Items = inspectBody(body)
		if given[0] == "body" && info.RPCMethod != "" && info.RPCMethod != "batch" {
			req.Name = info.RPCMethod // like method = …: a request is named after its JSON-RPC method
		}
	}
	// Answers are matched to the calls by id. The ids method and batch write are literal, so
	// the sample rendering has them all; a templated raw body may template its ids
	// ({{seq}}), so its ids are read from each rendering when it is sent.
	req.RPC = engine.ParseRPCCalls(body)
	if req.RPC != nil && req.Template != nil && given[0] == "body" {
		req.RPC.PerSend = true
	}
	return req, info, true
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

// uniqueNames gives requests that were not named explicitly distinct names ("getBalance",
// "getBalance#2"), so per-request numbers never mix two different requests. Explicit names are
// kept as written (duplicates among them were reported already).
func uniqueNames(mix []mixEntry) {
	names := newNameSet(len(mix))
	for _, e := range mix {
		if e.named {
			names.taken[e.req.Name] = true
		}
	}
	for i := range mix {
		if !mix[i].named {
			mix[i].req.Name = names.unique(mix[i].req.Name)
		}
	}
}

// nameSet hands out distinct request names: a profile's mix (uniqueNames) and the requests of
// a target stream as they appear (targetStream) alike.
type nameSet struct {
	taken map[string]bool
	// next is, per base name, the first suffix not yet probed: every lower one is taken (names
	// are never freed), so n requests of one method cost n probes, not n²/2 (a generated
	// profile of 10,000 eth_getBalance calls took 13 s to load).
	next map[string]int
}

func newNameSet(n int) *nameSet {
	return &nameSet{taken: make(map[string]bool, n), next: map[string]int{}}
}

// unique is name, or name#2, name#3 … if it is taken, and takes it.
func (s *nameSet) unique(name string) string {
	unique := name
	for k := max(s.next[name], 2); s.taken[unique]; k++ {
		unique = name + "#" + strconv.Itoa(k)
		s.next[name] = k + 1
	}
	s.taken[unique] = true
	return unique
}
