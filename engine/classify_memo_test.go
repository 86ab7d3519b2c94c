package engine

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/valyala/fastjson"
)

// memoStep is one answer classified in TestClassifyMemo: its status and body, and the call it
// answers (id: the id of a Sender's own per-send copy; 0: the shared call of the mix).
type memoStep struct {
	status int
	body   string
	id     int
	spec   int // index into the test's specs
	hit    bool
}

// TestClassifyMemo: a Classifier that remembers its last answer gives, at every answer, what one
// that forgets it gives (the Sample and every record in the batch), and recalls only an answer
// that is the last one again, to the same call, under the same rules.
func TestClassifyMemo(t *testing.T) {
	ok := `{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":0},"id":1}`
	ok7 := `{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":0},"id":7}`
	hex := `{"jsonrpc":"2.0","id":1,"result":"0x10"}`
	rpcErr := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`
	limited := `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"slow"}}`
	foreign := `{"jsonrpc":"2.0","id":2,"result":1}`
	long := `{"jsonrpc":"2.0","id":1,"result":"` + strings.Repeat("a", maxMemoBody) + `"}`
	specs := []*CallSpec{
		nil,
		{Cost: 3},
		{Cost: 3, Expect: &Expect{Rules: []*ExpectRule{mustRule(t, ExpectMatches, "result", "^0x")}}},
	}
	tests := []struct {
		name  string
		steps []memoStep
	}{
		{"the same answer again", []memoStep{{200, ok, 0, 0, false}, {200, ok, 0, 0, true}, {200, ok, 0, 0, true}}},
		{"another body", []memoStep{{200, ok, 0, 0, false}, {200, hex, 0, 0, false}, {200, ok, 0, 0, false}}},
		{"another status", []memoStep{{200, ok, 0, 0, false}, {201, ok, 0, 0, false}, {201, ok, 0, 0, true}}},
		{"an error is never recalled", []memoStep{{200, rpcErr, 0, 0, false}, {200, rpcErr, 0, 0, false}, {200, limited, 0, 0, false}}},
		{"an error between", []memoStep{{200, ok, 0, 0, false}, {200, rpcErr, 0, 0, false}, {200, ok, 0, 0, false}}},
		{"a fault is never recalled", []memoStep{{200, foreign, 0, 0, false}, {200, foreign, 0, 0, false}}},
		{"a 429 is not the calls' path", []memoStep{{200, ok, 0, 0, false}, {429, ok, 0, 0, false}, {200, ok, 0, 0, true}}},
		{"a 500 is not the calls' path", []memoStep{{200, ok, 0, 0, false}, {500, ok, 0, 0, false}, {200, ok, 0, 0, true}}},
		// A Sender's own copy of the calls keeps its address while its id changes per send.
		{"a per-send id", []memoStep{{200, ok, 1, 0, false}, {200, ok, 1, 0, true}, {200, ok, 7, 0, false}, {200, ok7, 7, 0, false}, {200, ok7, 7, 0, true}}},
		{"the mix's call against a copy", []memoStep{{200, ok, 0, 0, false}, {200, ok, 1, 0, false}, {200, ok, 0, 0, false}}},
		{"another cost", []memoStep{{200, ok, 1, 0, false}, {200, ok, 1, 1, false}, {200, ok, 1, 1, true}}},
		{"a rule broken is never recalled", []memoStep{{200, ok, 1, 2, false}, {200, ok, 1, 2, false}, {200, hex, 1, 2, false}, {200, hex, 1, 2, true}, {200, ok, 1, 2, false}}},
		{"too long to remember", []memoStep{{200, long, 0, 0, false}, {200, long, 0, 0, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shared := ParseRPCCalls([]byte(callOne))
			own := &RPCCalls{PerSend: true}
			var p fastjson.Parser
			memo, ref := NewClassifier(DefaultLimits()), NewClassifier(DefaultLimits())
			for i, st := range tt.steps {
				calls := shared
				if st.id != 0 {
					if !own.parse(&p, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"m"}`, st.id)) {
						t.Fatal("the call does not parse")
					}
					calls = own
				}
				calls.specs = nil
				if sp := specs[st.spec]; sp != nil {
					calls.specs = []CallSpec{*sp}
				}
				hits := memo.memo.hits
				got, gotB := classifyOnce(memo, st.status, st.body, calls)
				ref.memo.valid = false // it remembers the codes it saw, and no answer
				want, wantB := classifyOnce(ref, st.status, st.body, calls)
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotB, wantB) {
					t.Fatalf("step %d: %+v %+v, a fresh Classifier %+v %+v", i, got, gotB, want, wantB)
				}
				if hit := memo.memo.hits > hits; hit != st.hit {
					t.Errorf("step %d: recalled %v, want %v", i, hit, st.hit)
				}
			}
		})
	}
}

// classifyOnce classifies one answer into a Sample that holds stale figures, as a reused one does.
func classifyOnce(c *Classifier, status int, body string, calls *RPCCalls) (Sample, *Batch) {
	s := Sample{Calls: 9, CallsOK: 9, CallsLimited: 9, CallsInvalid: 9, RPCErrN: 9, CostOK: 9, Outcome: OutcomeLimited}
	b := &Batch{}
	c.Classify(&s, status, []byte(body), calls, 2, b)
	return s, b
}

// FuzzClassifyMemo classifies a sequence of two answers, a and b, in the order the bits of
// order give, with a Classifier that remembers and with one that forgets each answer: every
// Sample and every batch record must be the same.
func FuzzClassifyMemo(f *testing.F) {
	f.Add(uint16(0b0110), uint16(200), []byte(`{"jsonrpc":"2.0","id":1,"result":1}`), []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32005}}`))
	f.Add(uint16(0b0011), uint16(200), []byte(`{"jsonrpc":"2.0","id":1,"result":"0x1"}`), []byte(`{"jsonrpc":"2.0","id":2,"result":1}`))
	f.Add(uint16(0b1001), uint16(204), []byte(` `), []byte(`{"jsonrpc":"2.0","id":1}`))
	f.Fuzz(func(t *testing.T, order, status uint16, a, b []byte) {
		calls := ParseRPCCalls([]byte(callOne))
		if order&0x8000 != 0 {
			e := &Expect{Rules: []*ExpectRule{mustRule(t, ExpectMatches, "result", "^0x")}}
			calls.specs = []CallSpec{{Expect: e, Cost: 2}}
		}
		memo, ref := NewClassifier(DefaultLimits()), NewClassifier(DefaultLimits())
		for i := range 8 {
			body := a
			if order&(1<<i) != 0 {
				body = b
			}
			got, gotB := classifyOnce(memo, int(status), string(body), calls)
			ref.memo.valid = false
			want, wantB := classifyOnce(ref, int(status), string(body), calls)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotB, wantB) {
				t.Fatalf("answer %d: %+v %+v, a fresh Classifier %+v %+v", i, got, gotB, want, wantB)
			}
		}
	})
}

// TestRelearn: a memo keeps what it missed after a hit and for two misses in a row, then one
// miss in relearnEvery, until it hits again.
func TestRelearn(t *testing.T) {
	var r relearn
	var kept []int
	for i := 1; i <= 3*relearnEvery; i++ {
		if r.keep() {
			kept = append(kept, i)
		}
	}
	if want := []int{1, 2, relearnEvery, 2 * relearnEvery, 3 * relearnEvery}; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept misses %v, want %v", kept, want)
	}
	r.hit()
	if !r.keep() || !r.keep() || r.keep() {
		t.Error("after a hit: want the next two misses kept and the third not")
	}
}
