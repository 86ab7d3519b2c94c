package profiles

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxBatch bounds the calls of one JSON-RPC batch; nodes cap theirs far lower (geth: 1000).
const maxBatch = 10_000

// rpcCall is one JSON-RPC call of a request: a method and its params (nil: none). field
// locates the params for messages.
type rpcCall struct {
	method string
	params any
	field  string
}

// batch reads the batch key: a number of calls (batch = 10: the request's method, repeated)
// or a list of calls (batch = [{method = "getSlot"}, …]). ok is false when it is invalid
// (already reported).
func (c *checker) batch(t table, path string) (n int, list []table, ok bool) {
	v, present := t["batch"]
	if !present {
		return 0, nil, true
	}
	field := path + ".batch"
	switch v.(type) {
	case int64, float64:
		k, ok := c.integer(t, path, "batch", 1, maxBatch, "batch = 10")
		return int(k), nil, ok
	}
	l, isList := tables(v)
	switch {
	case !isList:
		c.typeErr(field, v, "a number of calls or a list of calls", `batch = 10, or batch = [{method = "getSlot"}, {method = "getBalance", params = ["…"]}]`)
		return 0, nil, false
	case len(l) == 0:
		c.addf(field, `is empty: list at least one call, e.g. batch = [{method = "getSlot"}]`)
		return 0, nil, false
	case len(l) > maxBatch:
		c.addf(field, "has %d calls: a batch holds at most %d", len(l), maxBatch)
		return 0, nil, false
	}
	return 0, l, true
}

// batchCalls reads the calls of a batch list.
func (c *checker) batchCalls(list []table, path string) ([]rpcCall, bool) {
	calls := make([]rpcCall, 0, len(list))
	ok := true
	for i, t := range list {
		field := path + ".batch[" + strconv.Itoa(i+1) + "]"
		c.unknownKeys(t, field, []string{"method", "params", "expect", "cost"})
		m, has := c.str(t, field, "method", `{method = "getSlot"}`)
		switch {
		case !has:
			if _, present := t["method"]; !present {
				c.addf(field, `has no method: write each call as {method = "getBalance", params = ["…"]}`)
			}
			ok = false
			continue
		case strings.TrimSpace(m) == "":
			c.addf(field+".method", `is empty: name the JSON-RPC method, e.g. method = "getSlot"`)
			ok = false
			continue
		}
		calls = append(calls, rpcCall{method: m, params: t["params"], field: field + ".params"})
	}
	return calls, ok
}

// calls compiles JSON-RPC calls into b: each {"jsonrpc":"2.0","id":N,"method":M,"params":P},
// the list repeated repeat times, in a JSON array when array is set. Ids count from 1 across
// the whole body. Each call's params are compiled once and shared by its repeats, so the
// sequences in them ({{seq}}, {{lineSeq}}) advance from one call of the batch to the next.
// where is the field blamed for a body that would be too large.
func (c *checker) calls(b *templateBuilder, tc *templateCompiler, calls []rpcCall, repeat int, array bool, where string) bool {
	params := make([]templateBuilder, len(calls))
	ok := true
	size := 0
	for i, call := range calls {
		size += len(`{"jsonrpc":"2.0","id":10000,"method":,"params":},`) + len(call.method)
		if call.params == nil {
			continue
		}
		if err := tc.jsonValue(&params[i], call.params, call.field, 0); err != nil {
			c.fieldErr(err, call.field)
			ok = false
			continue
		}
		size += params[i].build().maxLen()
	}
	if !ok {
		return false
	}
	if total := int64(size) * int64(repeat); total > maxBodyFileBytes {
		c.addf(where, "the body would be about %d MiB, over the maximum of %d MiB: send fewer or smaller calls", total>>20, maxBodyFileBytes>>20)
		return false
	}
	if array {
		b.literalString("[")
	}
	id := 0
	for range repeat {
		for i, call := range calls {
			id++
			if id > 1 {
				b.literalString(",")
			}
			m, err := encodeJSON(call.method)
			if err != nil { // a decoded TOML string always encodes; kept for safety
				c.addErr(strings.TrimSuffix(call.field, ".params")+".method", err, "cannot be written as JSON: %v", err)
				return false
			}
			b.literalString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":`)
			b.literal(m)
			if call.params != nil {
				b.literalString(`,"params":`)
				b.append(&params[i])
			}
			b.literalString("}")
		}
	}
	if array {
		b.literalString("]")
	}
	return true
}

// batchName names a batch request after its methods and size: "getBalance x10",
// "getBalance+getSlot x2". Up to three distinct methods are listed.
func batchName(calls []rpcCall, n int) string {
	var methods []string
	for _, c := range calls {
		if !slices.Contains(methods, c.method) {
			methods = append(methods, c.method)
		}
	}
	if len(methods) > 3 {
		methods = append(methods[:3], "…")
	}
	return fmt.Sprintf("%s x%d", strings.Join(methods, "+"), n)
}

// fieldErr records an error from compiling a value: at its own field when it carries one (a
// template deep inside params), else at field.
func (c *checker) fieldErr(err error, field string) {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			c.fieldErr(e, field)
		}
		return
	}
	if fe, ok := err.(*fieldError); ok {
		c.addErr(fe.field, err, "%s", fe.msg)
		return
	}
	c.addErr(field, err, "%v", err)
}
