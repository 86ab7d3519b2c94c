package engine

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// rawAnswer is an answer judged by status and error members alone, and the outcome and
// error records (Code and Message; Sample is the caller's) it must get.
type rawAnswer struct {
	name    string
	status  int
	body    string
	outcome Outcome
	errs    []codeMsg
}

// codeMsg is an error record's code and message.
type codeMsg struct {
	code int32
	msg  string
}

// rawAnswers are the rules for answers judged by status and error members alone, as every
// answer to a request that is not JSON-RPC is (calls nil). TestClassify checks them on a
// Classifier, TestSendOutcomes through a whole send.
func rawAnswers() []rawAnswer {
	return []rawAnswer{
		// A plain JSON-RPC success is ok and never parsed (no "error" bytes).
		{"result", 200, `{"jsonrpc":"2.0","id":1,"result":{"value":42}}`, OutcomeOK, nil},
		// An error member with a numeric code is a failed answer counted under its code.
		{"invalid params", 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}`, OutcomeFailed, []codeMsg{{-32602, "Invalid params"}}},
		// A code listed in Limits.RPCCodes is rate-limited, not failed.
		{"rpc limited", 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}`, OutcomeLimited, []codeMsg{{-32005, "limit exceeded"}}},
		// A batch: each element is examined; one limited item makes the whole answer limited.
		{"batch mixed", 200, `[{"id":1,"result":1},{"id":2,"error":{"code":-32601,"message":"no such method"}},{"id":3,"error":{"code":-32005,"message":"slow down"}}]`, OutcomeLimited, []codeMsg{{-32601, "no such method"}, {-32005, "slow down"}}},
		// A batch with only a plain error is failed.
		{"batch failed", 200, `[{"id":1,"result":1},{"id":2,"error":{"code":-32000,"message":"x"}}]`, OutcomeFailed, []codeMsg{{-32000, "x"}}},
		// A batch of successes is ok even though "error" appears in a result string.
		{"batch ok", 200, ` [{"id":1,"result":"error"},{"id":2,"result":2}]`, OutcomeOK, nil},
		// HTTP 429 is limited whatever the body says; the body is not read.
		{"429", 429, `{"error":{"code":-32000,"message":"x"}}`, OutcomeLimited, nil},
		// HTTP 500 is failed.
		{"500", 500, `Internal Server Error`, OutcomeFailed, nil},
		// A non-2xx answer with a JSON-RPC body still reports its code.
		{"400 with rpc error", 400, `{"error":{"code":-32600,"message":"Invalid Request"}}`, OutcomeFailed, []codeMsg{{-32600, "Invalid Request"}}},
		// A 503 carrying a rate-limit code is limited: limited wins over failed.
		{"503 with limit code", 503, `{"error":{"code":-32005,"message":"busy"}}`, OutcomeLimited, []codeMsg{{-32005, "busy"}}},
		// A 2xx body that is not JSON is ok: raw HTTP APIs answer in any format.
		{"non-JSON 200", 200, `hello, "error" world`, OutcomeOK, nil},
		// Garbage that starts like JSON but does not parse is ok too (no validation).
		{"garbage", 200, `{"error": {"code": -3`, OutcomeOK, nil},
		// An empty body is ok.
		{"empty", 204, ``, OutcomeOK, nil},
		// "error": null is JSON-RPC 1.0's way of saying success.
		{"error null", 200, `{"result":1,"error":null}`, OutcomeOK, nil},
		// An error member without a numeric code fails the answer but has no code to count.
		{"error string", 200, `{"error":"boom"}`, OutcomeFailed, nil},
		// Same for an error object whose code is a string.
		{"string code", 200, `{"error":{"code":"-32000","message":"x"}}`, OutcomeFailed, nil},
		// A code beyond int32 is clamped, never wrapped.
		{"huge code", 200, `{"error":{"code":1e30,"message":"big"}}`, OutcomeFailed, []codeMsg{{math.MaxInt32, "big"}}},
		// A fractional code is truncated; the HTTP-style code 429 in the body is limited.
		{"float code", 200, `{"error":{"code":429.0,"message":"Too many requests"}}`, OutcomeLimited, []codeMsg{{429, "Too many requests"}}},
		// Scalars at the top level are ok.
		{"scalar", 200, `["error"]`, OutcomeOK, nil},
		// 1xx-3xx outside 2xx are failed: the tester never follows redirects.
		{"redirect", 301, ``, OutcomeFailed, nil},
		// A 404 with an empty body is failed.
		{"404", 404, ``, OutcomeFailed, nil},
	}
}

// TestClassify: the rules of rawAnswers, on a Classifier.
func TestClassify(t *testing.T) {
	for _, tt := range rawAnswers() {
		t.Run(tt.name, func(t *testing.T) {
			c := NewClassifier(DefaultLimits())
			s := Sample{RPCErrN: 99, Outcome: OutcomeFailed}
			b := &Batch{}
			c.Classify(&s, tt.status, []byte(tt.body), nil, 7, b)
			if s.Calls != 0 || len(b.Faults) != 0 {
				t.Errorf("calls %d, faults %v: a raw request has no calls", s.Calls, b.Faults)
			}
			if s.Outcome != tt.outcome {
				t.Errorf("outcome %v, want %v", s.Outcome, tt.outcome)
			}
			checkRecords(t, s.RPCErrN, b.RPCErrors, 7, tt.errs)
		})
	}
}

// checkRecords checks the error records of a sample numbered sample, and its RPCErrN.
func checkRecords(t *testing.T, n uint16, errs []RPCError, sample int32, want []codeMsg) {
	t.Helper()
	if int(n) != len(errs) || len(errs) != len(want) {
		t.Fatalf("RPCErrN %d, %d errors %v, want %v", n, len(errs), errs, want)
	}
	for i, e := range errs {
		if e.Sample != sample || e.Code != want[i].code || e.Message != want[i].msg {
			t.Errorf("error %d = %+v, want sample %d %+v", i, e, sample, want[i])
		}
	}
}

// TestClassifyMessageOnce: a code's message is reported the first time only, so a steady
// stream of errors allocates nothing; a code first seen without a message reports it later.
func TestClassifyMessageOnce(t *testing.T) {
	c := NewClassifier(DefaultLimits())
	var s Sample
	b := &Batch{}
	body := []byte(`{"error":{"code":-32602,"message":"Invalid params"}}`)
	c.Classify(&s, 200, body, nil, 0, b)
	c.Classify(&s, 200, body, nil, 1, b)
	bare := []byte(`{"error":{"code":-32000}}`)
	c.Classify(&s, 200, bare, nil, 2, b)
	c.Classify(&s, 200, []byte(`{"error":{"code":-32000,"message":"late"}}`), nil, 3, b)
	c.Classify(&s, 200, []byte(`{"error":{"code":-32000,"message":"late"}}`), nil, 4, b)
	want := []RPCError{{0, -32602, "Invalid params"}, {1, -32602, ""}, {2, -32000, ""}, {3, -32000, "late"}, {4, -32000, ""}}
	if !slices.Equal(b.RPCErrors, want) {
		t.Errorf("got %+v, want %+v", b.RPCErrors, want)
	}
}

// TestClassifyLongMessage: messages are cut at a rune boundary, never past maxMessageBytes.
func TestClassifyLongMessage(t *testing.T) {
	c := NewClassifier(DefaultLimits())
	var s Sample
	msg := strings.Repeat("é", maxMessageBytes) // 2 bytes each
	b := &Batch{}
	c.Classify(&s, 200, []byte(`{"error":{"code":1,"message":"x`+msg+`"}}`), nil, 0, b)
	errs := b.RPCErrors
	if len(errs) != 1 || len(errs[0].Message) > maxMessageBytes || !strings.HasPrefix(errs[0].Message, "xé") ||
		strings.ContainsRune(errs[0].Message, '\uFFFD') {
		t.Fatalf("message %q (%d bytes)", errs[0].Message, len(errs[0].Message))
	}
}

// answerCase is an answer as a Classifier sees it: status, body and, for a JSON-RPC request,
// the calls it answers.
type answerCase struct {
	name   string
	status int
	body   []byte
	calls  *RPCCalls
}

// typicalAnswers are the answers most of a run classifies: raw (a request that is not
// JSON-RPC) and matched to their calls, ok, failed and limited, faults included.
// TestClassifyZeroAlloc checks each allocates nothing; BenchmarkClassify measures each.
func typicalAnswers() []answerCase {
	one, three := ParseRPCCalls([]byte(clientTestBody)), ParseRPCCalls(rpcBatchCalls)
	return []answerCase{
		// The fast path: no "error" bytes, no parse.
		{"ok", 200, rpcOKBody, nil},
		// The same answer with "error":null, which must be parsed: what the fast path saves.
		{"ok-parsed", 200, []byte(`{"jsonrpc":"2.0","id":1,"error":null,"result":{"context":{"slot":1234},"value":99999}}`), nil},
		// A JSON-RPC error, counted under its code.
		{"error", 200, rpcErrBody, nil},
		// A batch with one limited item.
		{"batch", 200, rpcBatchBody, nil},
		// A rate-limit status: the body is not read.
		{"429", 429, []byte(`Too Many Requests`), nil},
		// Answers matched to their calls by id: always parsed.
		{"calls-ok", 200, rpcOKBody, one},
		{"calls-error", 200, rpcErrBody, one},
		{"calls-batch", 200, rpcBatchBody, three},
		// A batch answer with a duplicate id and an unknown one: faults recorded.
		{"calls-faults", 200, []byte(`[{"jsonrpc":"2.0","id":3,"result":1},{"jsonrpc":"2.0","id":3,"result":1},{"id":"x"}]`), three},
	}
}

// TestClassifyZeroAlloc: once warm, classifying allocates nothing, for ok and error answers,
// raw or matched to their calls, faults included.
func TestClassifyZeroAlloc(t *testing.T) {
	c := NewClassifier(DefaultLimits())
	b := &Batch{RPCErrors: make([]RPCError, 0, 16), Faults: make([]CallFault, 0, 16)}
	for _, tt := range typicalAnswers() {
		var s Sample
		c.Classify(&s, tt.status, tt.body, tt.calls, 0, b) // warm: parser cache, seen codes
		if n := testing.AllocsPerRun(100, func() { b.Reset(); c.Classify(&s, tt.status, tt.body, tt.calls, 0, b) }); n != 0 {
			t.Errorf("%s: %v allocs per Classify", tt.name, n)
		}
	}
}

// Bodies shared by tests and benchmarks.
var (
	rpcOKBody    = []byte(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":1234},"value":99999}}`)
	rpcErrBody   = []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}`)
	rpcBatchBody = []byte(`[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32005,"message":"limit"}},{"jsonrpc":"2.0","id":3,"result":3}]`)
	// rpcBatchCalls is the request rpcBatchBody answers.
	rpcBatchCalls = []byte(`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"},{"jsonrpc":"2.0","id":3,"method":"c"}]`)
)

func FuzzClassify(f *testing.F) {
	for _, b := range [][]byte{rpcOKBody, rpcErrBody, rpcBatchBody, []byte(`{"error":{"code":1e400}}`), []byte(`[[{"error":{}}]]`)} {
		f.Add(200, b)
	}
	f.Add(429, []byte(`{"error":{"code":-32005}}`))
	f.Add(503, []byte(`{"error":{"code":-32005,"message":"x"}}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		c := NewClassifier(DefaultLimits())
		s := Sample{RPCErrN: 5}
		pre := []RPCError{{Sample: -1}}
		b := &Batch{RPCErrors: pre}
		c.Classify(&s, status, body, nil, 3, b)
		errs := b.RPCErrors
		if int(s.RPCErrN) != len(errs)-len(pre) {
			t.Fatalf("RPCErrN %d, appended %d", s.RPCErrN, len(errs)-len(pre))
		}
		if s.Outcome >= outcomeCount {
			t.Fatalf("outcome %d", s.Outcome)
		}
		for _, e := range errs[len(pre):] {
			if e.Sample != 3 || len(e.Message) > maxMessageBytes {
				t.Fatalf("bad record %+v", e)
			}
		}
		if errs[0].Sample != -1 {
			t.Fatal("existing records changed")
		}
		// Classifying again gives the same outcome: the parser's reuse leaks nothing between calls.
		again := s
		c.Classify(&again, status, body, nil, 3, &Batch{})
		if again.Outcome != s.Outcome || again.RPCErrN != s.RPCErrN {
			t.Fatalf("second pass %v/%d, first %v/%d", again.Outcome, again.RPCErrN, s.Outcome, s.RPCErrN)
		}
	})
}
