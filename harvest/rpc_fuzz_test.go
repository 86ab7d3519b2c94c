package harvest

import "testing"

// FuzzDecodeAnswers: whatever a node answers, decoding never panics and every call ends with a
// result or an error of its own, never neither.
func FuzzDecodeAnswers(f *testing.F) {
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"x"}}]`), true)
	f.Add([]byte(`{"jsonrpc":"2.0","id":0,"result":null}`), false)
	f.Add([]byte(`{"id":null,"error":{"code":-32600,"message":"no batches"}}`), false)
	f.Add([]byte(`[{"id":7,"result":1},{"id":-1},{"id":"a"}]`), true)
	f.Fuzz(func(t *testing.T, data []byte, batch bool) {
		cs := []call{{Method: "a"}, {Method: "b"}}
		if !batch {
			cs = cs[:1]
		}
		if err := decodeAnswers(cs, data, batch); err != nil {
			return
		}
		for _, c := range cs {
			if c.Result == nil && c.Err == nil {
				t.Fatalf("call %s has neither result nor error after %q", c.Method, data)
			}
		}
	})
}
