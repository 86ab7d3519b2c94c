package engine

import (
	"hash/maphash"
	"testing"
)

// TestSubParse: what a subscriber reads out of each kind of message.
func TestSubParse(t *testing.T) {
	seed := maphash.MakeSeed()
	tests := []struct {
		kind SubKind
		msg  string
		want subMsg // key and hash are checked apart
		key  bool   // the message keys an event
	}{
		// The subscribe call's answer: an id.
		{SubHeads, `{"jsonrpc":"2.0","id":1,"result":"0xcd0c3e8af590364c09d0fa6a1210faf5"}`, subMsg{answer: true, ok: true}, false},
		// Solana's is a number.
		{SubSlots, `{"jsonrpc":"2.0","result":23784,"id":1}`, subMsg{answer: true, ok: true}, false},
		// A refusal, with its code and message.
		{SubHeads, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method eth_subscribe does not exist"}}`,
			subMsg{answer: true, code: -32601, msg: "the method eth_subscribe does not exist"}, false},
		// A head: its number and timestamp.
		{SubHeads, `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x9ce5","result":{"number":"0x1b4","hash":"0xdc0818cf78f21a8e70579cb46a43643f78291264dda342ae31049421c82d21ae","timestamp":"0x55ba467c"}}}`,
			subMsg{note: true, number: 0x1b4, hasNumber: true, ts: 0x55ba467c, hasTS: true}, true},
		// A slot.
		{SubSlots, `{"jsonrpc":"2.0","method":"slotNotification","params":{"result":{"parent":75,"root":44,"slot":76},"subscription":0}}`,
			subMsg{note: true, number: 76, hasNumber: true}, true},
		// A log: keyed by its result.
		{SubOther, `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x4a8a","result":{"address":"0x8320fe7702b96808f7bbc0d4a888ed1468216cfd","logIndex":"0x0"}}}`,
			subMsg{note: true}, true},
		// Not JSON, and JSON that is neither: nothing.
		{SubHeads, `not json`, subMsg{}, false},
		{SubHeads, `{"jsonrpc":"2.0","method":"eth_subscription"}`, subMsg{}, false},
	}
	for _, tt := range tests {
		p := subParser{kind: tt.kind, seed: seed}
		got := p.parse([]byte(tt.msg))
		key, hash := got.key, got.hash
		got.key, got.hash = 0, 0
		if got != tt.want || (key != 0) != tt.key {
			t.Errorf("%s:\n got %+v (key %x)\nwant %+v (key: %v)", tt.msg, got, key, tt.want, tt.key)
		}
		if tt.kind == SubHeads && tt.key && hash != key {
			t.Errorf("a head is keyed by its hash")
		}
	}
	// Two subscribers key an event alike.
	a, b := subParser{kind: SubOther, seed: seed}, subParser{kind: SubOther, seed: seed}
	msg := []byte(`{"method":"logsNotification","params":{"result":{"context":{"slot":5},"value":{"signature":"5h6x"}},"subscription":24040}}`)
	other := []byte(`{"method":"logsNotification","params":{"result":{"context":{"slot":5},"value":{"signature":"5h6y"}},"subscription":3}}`)
	if a.parse(msg).key != b.parse(msg).key || a.parse(msg).key == b.parse(other).key {
		t.Error("events are not keyed by their result")
	}
}

// FuzzSubParse: any message is an answer, a notification or neither, never both, and never a
// panic.
func FuzzSubParse(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":"0x1"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x1","result":{"number":"0x1b4","hash":"0x01","timestamp":"0xffffffffffffffff"}}}`))
	f.Add([]byte(`{"params":{"result":{"slot":-1}}}`))
	f.Add([]byte(`{"id":null,"error":{"code":1e300,"message":7}}`))
	seed := maphash.MakeSeed()
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, kind := range []SubKind{SubHeads, SubSlots, SubOther} {
			p := subParser{kind: kind, seed: seed}
			m := p.parse(b)
			if m.answer && m.note || m.ok && m.code != 0 || m.hasTS && m.ts < 0 {
				t.Fatalf("%q read as %+v", b, m)
			}
		}
	})
}
