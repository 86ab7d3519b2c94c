package profiles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// requestInfo is what the engine does not need but people do: where a request's body came from.
type requestInfo struct {
	// RPCMethod is the JSON-RPC method, also when read out of a raw body; "batch" for arrays.
	RPCMethod string
	// Source is "method", "body" or "body_file:<path>".
	Source string
}

// requests reads the [[request]] tables into the weighted mix.
func (c *checker) requests(doc table, src *source) ([]engine.Request, []requestInfo) {
	v, ok := doc["request"]
	if !ok {
		c.addf("request", `no requests: add at least one [[request]] table with method = "getBalance" (JSON-RPC), body = '…' or body_file = "…"`)
		return nil, nil
	}
	list, ok := tables(v)
	if !ok {
		c.typeErr("request", v, "a list of [[request]] tables", "[[request]] (double brackets), then method = \"getBalance\"")
		return nil, nil
	}
	if len(list) == 0 {
		c.addf("request", `is empty: add at least one [[request]] table with method = "getBalance"`)
		return nil, nil
	}
	var (
		reqs     []engine.Request
		infos    []requestInfo
		named    []bool
		explicit = map[string]int{} // name → number of the request that chose it
	)
	for i, t := range list {
		path := "request[" + strconv.Itoa(i+1) + "]"
		c.unknownKeys(t, path, requestKeys())
		req, info, ok := c.request(t, path, src)
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
		reqs = append(reqs, req)
		infos = append(infos, info)
		named = append(named, explicit[req.Name] == i+1)
	}
	uniqueNames(reqs, named)
	return reqs, infos
}

// request reads one [[request]]: exactly one of method (+ params), body or body_file, and a
// weight.
func (c *checker) request(t table, path string, src *source) (engine.Request, requestInfo, bool) {
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
	var given []string
	for _, k := range []string{"method", "body", "body_file"} {
		if _, ok := t[k]; ok {
			given = append(given, k)
		}
	}
	switch len(given) {
	case 0:
		c.addf(path, `says nothing to send: add method = "getBalance" (JSON-RPC), body = '{…}' or body_file = "body.json"`)
		return req, info, false
	case 1:
	default:
		c.addf(joinPath(path, given[1]), "%s and %s are both set: a request sends one of method, body or body_file; split it into two [[request]] tables", given[0], given[1])
		return req, info, false
	}
	if _, ok := t["params"]; ok && given[0] != "method" {
		c.addf(path+".params", "params go with method (a JSON-RPC call), not with %s: put them into the body, or use method", given[0])
	}

	var body []byte
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
		b, err := envelope(m, t["params"])
		if err != nil {
			c.addErr(path+".params", err, "cannot be written as JSON (%v): use strings, numbers, booleans, arrays and tables", err)
			return req, info, false
		}
		body, req.Name, info = b, m, requestInfo{RPCMethod: m, Source: "method"}
	case "body":
		s, ok := c.str(t, path, "body", `body = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}'`)
		if !ok {
			return req, info, false
		}
		body, req.Name, info = []byte(s), "body", requestInfo{Source: "body"}
	case "body_file":
		name, ok := c.str(t, path, "body_file", `body_file = "heavy.json"`)
		if !ok {
			return req, info, false
		}
		b, err := src.readBody(name)
		if err != nil {
			c.addErr(path+".body_file", err, "%v: put the file next to the profile (paths are relative to its folder) or fix the path", err)
			return req, info, false
		}
		body, req.Name, info = b, "body_file:"+filepath.Base(name), requestInfo{Source: "body_file:" + name}
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
	if given[0] != "method" {
		info.RPCMethod, req.Items = inspectBody(body)
	}
	return req, info, true
}

// envelope renders a JSON-RPC 2.0 call once, compactly, so the engine only copies bytes:
// {"jsonrpc":"2.0","id":1,"method":M,"params":P}, without params when there are none.
func envelope(method string, params any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // send "<" as written; this is not HTML
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":`)
	if err := enc.Encode(method); err != nil {
		return nil, err
	}
	if params != nil {
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteString(`,"params":`)
		if err := enc.Encode(params); err != nil {
			return nil, err
		}
	}
	b.Truncate(b.Len() - 1)
	b.WriteByte('}')
	return b.Bytes(), nil
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
func uniqueNames(reqs []engine.Request, named []bool) {
	taken := make(map[string]bool, len(reqs))
	for i, r := range reqs {
		if named[i] {
			taken[r.Name] = true
		}
	}
	for i := range reqs {
		if named[i] {
			continue
		}
		base, name := reqs[i].Name, reqs[i].Name
		for k := 2; taken[name]; k++ {
			name = fmt.Sprintf("%s#%d", base, k)
		}
		reqs[i].Name = name
		taken[name] = true
	}
}
