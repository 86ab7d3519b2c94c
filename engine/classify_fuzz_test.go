package engine

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/valyala/fastjson"
)

// batchRequest is a batch of n calls with ids 1..n followed by notes notifications; a single
// call (id 1) when n is 1 and notes 0 and single is set.
func batchRequest(n, notes int, single bool) []byte {
	if single && n == 1 && notes == 0 {
		return []byte(callOne)
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 1; i <= n+notes; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		if i <= n {
			b.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"m"}`)
		} else {
			b.WriteString(`{"jsonrpc":"2.0","method":"note"}`)
		}
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// FuzzBatchAnswer feeds any answer to a batch (or a single call) and checks the call books:
// nothing panics; calls ok + limited + failed = the calls sent, each within bounds; the
// outcome agrees with the calls and faults; every record belongs to the sample; with expect
// rules (when bit 4 of n is set: results must be there and match "^0x"), the invalid calls
// are failed calls, recorded once each, and none without rules; classifying again gives the
// same; and, where the answer is a JSON array both encoding/json and fastjson
// read alike, the calls reported missing are exactly those whose id no item carries, found by
// an independent reading with encoding/json.
func FuzzBatchAnswer(f *testing.F) {
	seeds := []string{
		`[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1},{"jsonrpc":"2.0","id":3,"result":1}]`,
		`[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1}]`,
		`[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","result":1},{"jsonrpc":"2.0","id":3,"error":{"code":-32005}}]`,
		`[{"jsonrpc":"2.0","id":1.0,"result":1},{"jsonrpc":"2.0","id":"2","result":1},{"jsonrpc":"2.0","id":3,"result":1},{"jsonrpc":"2.0","id":3,"result":1},{"jsonrpc":"2.0","id":999999,"result":1}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"too large"}}`,
		`{"foo":1}`, `[]`, ``, `[1,"a",null,[{}]]`, `{"jsonrpc":"2.0","id":424242,"result":1}`,
	}
	for _, s := range seeds {
		f.Add(uint8(3), uint8(0), false, uint16(200), []byte(s))
	}
	f.Add(uint8(1), uint8(0), true, uint16(200), []byte(`{"jsonrpc":"2.0","id":1,"result":1}`))
	f.Add(uint8(2), uint8(1), false, uint16(200), []byte(`[{"jsonrpc":"2.0","id":2,"result":1}]`))
	f.Add(uint8(3), uint8(0), false, uint16(503), []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32005}}`))
	f.Fuzz(func(t *testing.T, n, notes uint8, single bool, status uint16, body []byte) {
		ids, nn := int(n%16)+1, int(notes%4)
		calls := ParseRPCCalls(batchRequest(ids, nn, single))
		if calls == nil || calls.Calls() != ids+nn {
			t.Fatalf("request of %d calls read as %v", ids+nn, calls)
		}
		rules := n&16 != 0
		if rules {
			e := &Expect{Rules: []*ExpectRule{mustRule(t, ExpectPresent, "result", nil), mustRule(t, ExpectMatches, "result", "^0x")}}
			if err := calls.SetSpecs([]CallSpec{{Expect: e, Cost: 2}}); err != nil {
				t.Fatal(err)
			}
		}
		c := NewClassifier(DefaultLimits())
		s := Sample{Calls: 7, CallsOK: 7, CallsLimited: 7, RPCErrN: 9}
		b := &Batch{RPCErrors: []RPCError{{Sample: -1}}, Faults: []CallFault{{Sample: -1}}}
		c.Classify(&s, int(status), body, calls, 3, b)

		if int(s.Calls) != calls.Calls() || int(s.CallsOK)+int(s.CallsLimited) > int(s.Calls) {
			t.Fatalf("calls %d ok %d limited %d: ok + limited + failed must be the %d calls sent", s.Calls, s.CallsOK, s.CallsLimited, calls.Calls())
		}
		failed := int(s.Calls) - int(s.CallsOK) - int(s.CallsLimited)
		if s.Outcome >= outcomeCount || int(s.RPCErrN) != len(b.RPCErrors)-1 {
			t.Fatalf("outcome %d, RPCErrN %d for %d records", s.Outcome, s.RPCErrN, len(b.RPCErrors)-1)
		}
		if b.RPCErrors[0].Sample != -1 || b.Faults[0].Sample != -1 {
			t.Fatal("records already in the batch changed")
		}
		faults := map[Fault]uint32{}
		for _, fr := range b.Faults[1:] {
			if fr.Sample != 3 || fr.N == 0 || fr.Fault >= faultCount || faults[fr.Fault] > 0 {
				t.Fatalf("fault record %+v (one per kind, with a count)", fr)
			}
			faults[fr.Fault] = fr.N
		}
		if int(faults[FaultMissing]) > calls.answers() || (calls.Batch && faults[FaultForeignID] > 0) {
			t.Fatalf("faults %v for %d answers expected (batch %v)", faults, calls.answers(), calls.Batch)
		}
		switch s.Outcome {
		case OutcomeOK:
			if failed > 0 || s.CallsLimited > 0 || len(faults) > 0 {
				t.Fatalf("ok with %d calls failed, %d limited, faults %v", failed, s.CallsLimited, faults)
			}
		case OutcomeFailed:
			if s.CallsLimited > 0 {
				t.Fatalf("failed with %d calls limited: limited wins", s.CallsLimited)
			}
		}
		if status >= 200 && status <= 299 && int(faults[FaultMissing]) > failed {
			t.Fatalf("%d calls missing but %d failed", faults[FaultMissing], failed)
		}
		var invalid uint32
		for _, v := range b.Invalid {
			if v.Sample != 3 || v.N == 0 || v.Rule == nil {
				t.Fatalf("invalid record %+v", v)
			}
			invalid += v.N
		}
		switch {
		case int(s.CallsInvalid) > failed || invalid != uint32(s.CallsInvalid):
			t.Fatalf("%d calls invalid, %d recorded, %d failed", s.CallsInvalid, invalid, failed)
		case !rules && (s.CallsInvalid > 0 || s.CostOK > 0):
			t.Fatalf("%d calls invalid, cost %d accepted without rules or costs", s.CallsInvalid, s.CostOK)
		case rules && s.CostOK != 2*uint32(s.CallsOK):
			t.Fatalf("cost %d accepted for %d calls ok at 2 each", s.CostOK, s.CallsOK)
		case s.Invalid() && s.Outcome != OutcomeFailed:
			t.Fatalf("an invalid request with outcome %v", s.Outcome)
		}
		again := Sample{}
		b2 := &Batch{}
		c.Classify(&again, int(status), body, calls, 3, b2)
		if again.Outcome != s.Outcome || again.CallsOK != s.CallsOK || again.CallsLimited != s.CallsLimited || len(b2.Faults) != len(b.Faults)-1 {
			t.Fatalf("second pass %+v, first %+v", again, s)
		}
		if status >= 200 && status <= 299 && calls.Batch {
			if want, ok := missingByOracle(body, ids); ok && int(faults[FaultMissing]) != want {
				t.Fatalf("%d calls reported missing, the oracle finds %d", faults[FaultMissing], want)
			}
		}
	})
}

// missingByOracle counts the ids 1..n that no object item of a JSON array answer carries,
// reading it with encoding/json (not the parser under test). ok is false where the oracle does
// not apply: not an array, JSON the two parsers may read differently (invalid for either, or
// an item repeating a key, where they keep different copies).
func missingByOracle(body []byte, n int) (missing int, ok bool) {
	// encoding/json reads null into a slice as none at all: that is no array either (the
	// classifier calls it no JSON-RPC answer, not calls missing).
	if !json.Valid(body) || fastjson.ValidateBytes(body) != nil || !bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		return 0, false
	}
	var items []json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		return 0, false
	}
	seen := map[int]bool{}
	for _, it := range items {
		var obj map[string]json.RawMessage
		if json.Unmarshal(it, &obj) != nil {
			continue // not an object: answers nothing
		}
		if repeatsKey(it) {
			return 0, false
		}
		raw, has := obj["id"]
		if !has {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var id any
		if d.Decode(&id) != nil {
			continue
		}
		num, isNum := id.(json.Number)
		if !isNum {
			continue
		}
		f, err := strconv.ParseFloat(string(num), 64)
		if err == nil && f == float64(int(f)) && f >= 1 && f <= float64(n) {
			seen[int(f)] = true
		}
	}
	return n - len(seen), true
}

// repeatsKey reports an object whose top level names a key twice.
func repeatsKey(obj []byte) bool {
	d := json.NewDecoder(bytes.NewReader(obj))
	if _, err := d.Token(); err != nil {
		return true
	}
	keys := map[string]bool{}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return true
		}
		ks, _ := k.(string)
		if keys[ks] {
			return true
		}
		keys[ks] = true
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return true
		}
	}
	return false
}
