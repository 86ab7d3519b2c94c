package harvest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// maxAnswer bounds one answer's size: a block with full transactions is a few MB on busy chains;
// 64 MiB leaves room for a batch of them without letting a rude node fill the memory.
const maxAnswer = 64 << 20

// RPCError is a JSON-RPC error answer.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// methodNotFound is JSON-RPC's code for a method the node does not know: the sign of a node of
// another chain.
const methodNotFound = -32601

// call is one JSON-RPC call of a batch, with where its answer goes.
type call struct {
	Method string
	Params []any
	Result json.RawMessage // the raw result, set by do
	Err    error           // the call's own error (an RPCError), set by do
}

// client speaks JSON-RPC over HTTP to the reference node, politely: one limiter for every HTTP
// request, batches of up to batch calls, and single calls once the node has refused a batch.
type client struct {
	url      string
	headers  map[string]string
	http     *http.Client
	limit    *rate.Limiter
	batch    int
	noBatch  atomic.Bool
	requests atomic.Int64 // HTTP requests sent, for the manifest and the progress line
}

func newClient(o *Options) *client {
	return &client{
		url: o.URL, headers: o.Headers, batch: o.Batch,
		http:  &http.Client{Timeout: o.Timeout},
		limit: rate.NewLimiter(rate.Limit(o.Rate), 1), // burst 1: evenly spaced, never a spike
	}
}

// one makes a single call and decodes its result into out (nil: ignore the result).
func (c *client) one(ctx context.Context, method string, out any, params ...any) error {
	cs := []call{{Method: method, Params: params}}
	if err := c.send(ctx, cs, false); err != nil {
		return err
	}
	if cs[0].Err != nil {
		return cs[0].Err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(cs[0].Result, out); err != nil {
		return fmt.Errorf("%s: the answer is not what a node sends (%w)", method, err)
	}
	return nil
}

// first makes the first call of a harvest, the one that tells the chain: a node that does not
// know the method is of another chain, which the error says (notA: "an EVM node (…)").
func (c *client) first(ctx context.Context, method string, out any, notA string) error {
	err := c.one(ctx, method, out)
	var re *RPCError
	if errors.As(err, &re) && re.Code == methodNotFound {
		return fmt.Errorf("the node does not know %s: it is not %s", method, notA)
	}
	return err
}

// do makes every call, in batches where the node takes them. An error is the transport's (or the
// context's); each call's own JSON-RPC error is in its Err.
func (c *client) do(ctx context.Context, cs []call) error {
	for len(cs) > 0 {
		n := min(len(cs), c.batch)
		if c.noBatch.Load() {
			n = 1
		}
		if err := c.send(ctx, cs[:n], n > 1); err != nil {
			if errors.Is(err, errBatchRefused) {
				c.noBatch.Store(true)
				continue
			}
			return err
		}
		cs = cs[n:]
	}
	return nil
}

// errBatchRefused: the node answered a batch with one error or not at all as a batch.
var errBatchRefused = errors.New("the node does not take JSON-RPC batches")

// send makes one HTTP request carrying cs (a batch if asBatch).
func (c *client) send(ctx context.Context, cs []call, asBatch bool) error {
	body, err := encodeCalls(cs, asBatch)
	if err != nil {
		return err
	}
	if err := c.limit.Wait(ctx); err != nil {
		return ctx.Err()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("the URL %s: %w", c.url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	c.requests.Add(1)
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("cannot reach the node: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("reading the answer: %w", err)
	}
	if len(data) > maxAnswer {
		return fmt.Errorf("an answer over %d MiB: lower --batch", maxAnswer>>20)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return fmt.Errorf("the node limits this client (HTTP 429): lower --rate (now %g/s)", float64(c.limit.Limit()))
	}
	if asBatch && (resp.StatusCode != http.StatusOK || !bytes.HasPrefix(bytes.TrimSpace(data), []byte("["))) {
		return errBatchRefused
	}
	if resp.StatusCode != http.StatusOK && !json.Valid(data) {
		return fmt.Errorf("the node answered HTTP %d: %s", resp.StatusCode, snippet(data))
	}
	return decodeAnswers(cs, data, asBatch)
}

// encodeCalls writes cs as one call or a batch, ids 0…n-1.
func encodeCalls(cs []call, asBatch bool) ([]byte, error) {
	type wire struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Method  string `json:"method"`
		Params  []any  `json:"params"`
	}
	ws := make([]wire, len(cs))
	for i, c := range cs {
		p := c.Params
		if p == nil {
			p = []any{}
		}
		ws[i] = wire{"2.0", i, c.Method, p}
	}
	if asBatch {
		return json.Marshal(ws)
	}
	return json.Marshal(ws[0])
}

// decodeAnswers matches answers to calls by id: a batch's answers may come in any order.
func decodeAnswers(cs []call, data []byte, asBatch bool) error {
	type answer struct {
		ID     *int            `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	var as []answer
	if asBatch {
		if err := json.Unmarshal(data, &as); err != nil {
			return fmt.Errorf("the node's batch answer is not JSON-RPC: %s", snippet(data))
		}
	} else {
		var a answer
		if err := json.Unmarshal(data, &a); err != nil {
			return fmt.Errorf("the node's answer is not JSON-RPC: %s", snippet(data))
		}
		if a.ID == nil { // an error about the request as a whole carries no id
			a.ID = new(int)
		}
		as = []answer{a}
	}
	for _, a := range as {
		if a.ID == nil || *a.ID < 0 || *a.ID >= len(cs) {
			continue
		}
		c := &cs[*a.ID]
		switch {
		case a.Error != nil:
			c.Err = fmt.Errorf("%s: %w", c.Method, a.Error)
		case a.Result == nil:
			c.Err = fmt.Errorf("%s: an answer with neither result nor error", c.Method)
		default:
			c.Result = a.Result
		}
	}
	// Every call the answer left out, counted by call, not by answer: a node that answers one
	// id twice leaves another out as surely as one that answers it once (FuzzDecodeAnswers).
	for i := range cs {
		if cs[i].Result == nil && cs[i].Err == nil {
			cs[i].Err = fmt.Errorf("%s: the node's answer left this call out", cs[i].Method)
		}
	}
	return nil
}

// snippet is the start of an answer for a message: one line, escaped, at most 80 cells.
func snippet(data []byte) string {
	if s := textfmt.Truncate(textfmt.OneLine(string(data)), 80); s != "" {
		return s
	}
	return "(empty)"
}

// defaultTimeout is one request's limit: a batch of full blocks from a busy node takes seconds.
const defaultTimeout = 30 * time.Second
