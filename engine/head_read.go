package engine

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fastjson"
)

// maxHeadAnswer bounds the answer to a head read: a number in a JSON-RPC envelope takes a
// hundred bytes, so anything near this is not that answer.
const maxHeadAnswer = 64 << 10

// headReader reads one node's head with a JSON-RPC call of its own. It is not the load: it
// has its own client, its calls are not counted in the run's books, and it reads at most once
// per HeadConfig.Every. It uses net/http rather than the load's fasthttp because a read must
// end the moment its context does (the run ending), which fasthttp's calls cannot.
type headReader struct {
	client  *http.Client
	url     string // secrets included: never shown
	display string
	headers []Header
	chain   Chain
	body    []byte
	timeout time.Duration
}

// newHeadReader reads the head of chain at url. headers go with every read (the target's API
// key; a reference node gets none of the target's headers).
func newHeadReader(chain Chain, rawURL, display string, headers []Header, tlsCfg *tls.Config, timeout time.Duration) *headReader {
	tr := &http.Transport{TLSClientConfig: tlsCfg, MaxIdleConnsPerHost: 1, ResponseHeaderTimeout: timeout}
	return &headReader{
		client:  &http.Client{Transport: tr, Timeout: timeout},
		url:     rawURL,
		display: display,
		headers: headers,
		chain:   chain,
		body:    []byte(`{"jsonrpc":"2.0","id":1,"method":"` + chain.HeadMethod() + `","params":[]}`),
		timeout: timeout,
	}
}

// close lets go of the reader's idle connection.
func (r *headReader) close() { r.client.CloseIdleConnections() }

// rpcError is a JSON-RPC error the node answered a head read with.
type rpcError struct {
	code int64
	msg  string
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("JSON-RPC error %d (%s)", e.code, clipText(e.msg, 80))
}

// read asks the node for its head once.
func (r *headReader) read(ctx context.Context) (uint64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(r.body))
	if err != nil {
		return 0, fmt.Errorf("the URL cannot be used: %w", unwrapURLError(err))
	}
	req.Header.Set("Content-Type", "application/json")
	for _, h := range r.headers {
		req.Header.Set(h.Name, h.Value)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		if isTimeout(err) {
			return 0, fmt.Errorf("no answer within %s", r.timeout)
		}
		return 0, unwrapURLError(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxHeadAnswer+1))
	if err != nil {
		return 0, fmt.Errorf("reading the answer: %w", unwrapURLError(err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return 0, fmt.Errorf("HTTP %s", resp.Status)
	}
	if len(body) > maxHeadAnswer {
		return 0, fmt.Errorf("the answer is over %d KiB, not a head", maxHeadAnswer>>10)
	}
	return parseHead(r.chain, body)
}

// parseHead reads the head out of a JSON-RPC answer: a hex quantity (EVM) or a number
// (Solana).
func parseHead(chain Chain, body []byte) (uint64, error) {
	v, err := fastjson.ParseBytes(body)
	if err != nil {
		return 0, fmt.Errorf("the answer is not JSON: %s", clipText(string(body), 60))
	}
	if e := v.Get("error"); e != nil && e.Type() != fastjson.TypeNull {
		return 0, &rpcError{code: e.GetInt64("code"), msg: string(e.GetStringBytes("message"))}
	}
	res := v.Get("result")
	if res == nil {
		return 0, fmt.Errorf("the answer has no result: %s", clipText(string(body), 60))
	}
	// A head above the largest int64 is no chain's (at a block a second, 292 billion years):
	// refused here, templates and lags can count in int64.
	switch chain {
	case ChainEVM:
		s, err := res.StringBytes()
		if err == nil {
			if n, ok := parseHexQuantity(string(s)); ok && n <= math.MaxInt64 {
				return n, nil
			}
		}
	case ChainSolana:
		if n, err := res.Uint64(); err == nil && n <= math.MaxInt64 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("the result %s is not a head as %s writes it (%s)", clipText(res.String(), 40), chain, headForm(chain))
}

// headForm says what a chain's head looks like, for messages.
func headForm(c Chain) string {
	if c == ChainEVM {
		return `a hex quantity such as "0x1b4"`
	}
	return "a whole number"
}

// parseHexQuantity reads an EVM quantity: 0x and hex digits.
func parseHexQuantity(s string) (uint64, bool) {
	if len(s) < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return 0, false
	}
	n, err := strconv.ParseUint(s[2:], 16, 64)
	return n, err == nil
}

// unwrapURLError drops net/http's "Post URL:" wrapper, whose URL may carry an API key.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// clipText cuts s to n bytes for a message, on a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
