package engine

import (
	"reflect"
	"strings"
	"testing"
)

// TestPlainMemo: the memo reads every answer as readPlain does, and takes from memory only an
// answer whose head is the last accepted one's, with a body of its length, under its limits.
func TestPlainMemo(t *testing.T) {
	ok := plainAnswerOf("200 OK", "Content-Type: application/json\r\n", "Date: Wed, 02 Dec 2026 01:00:00 GMT\r\n")
	later := plainAnswerOf("200 OK", "Content-Type: application/json\r\n", "Date: Wed, 02 Dec 2026 01:00:01 GMT\r\n")
	limited := plainAnswerOf("429 Too Many Requests", "Retry-After: 1\r\n", "Connection: close\r\n")
	otherBody := strings.Replace(ok, plainBody, strings.ToUpper(plainBody[:1])+plainBody[1:], 1)
	shorter := strings.TrimSuffix(ok, plainBody[len(plainBody)-1:])
	chunked := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
	long := plainAnswerOf("200 OK", "X-A: "+strings.Repeat("a", maxMemoHead)+"\r\n")
	type step struct {
		in      string
		maxBody int
		hit     bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"the same answer again", []step{{ok, 1 << 20, false}, {ok, 1 << 20, true}, {ok, 1 << 20, true}}},
		{"another body of the same length", []step{{ok, 1 << 20, false}, {otherBody, 1 << 20, true}}},
		{"a new second's Date", []step{{ok, 1 << 20, false}, {later, 1 << 20, false}, {later, 1 << 20, true}, {ok, 1 << 20, false}}},
		{"another status and fields", []step{{ok, 1 << 20, false}, {limited, 1 << 20, false}, {limited, 1 << 20, true}}},
		{"a body cut short", []step{{ok, 1 << 20, false}, {shorter, 1 << 20, false}, {ok, 1 << 20, true}}},
		{"another body limit", []step{{ok, 1 << 20, false}, {ok, 4, false}, {ok, 1 << 20, true}, {ok, 1 << 19, false}, {ok, 1 << 19, true}}},
		{"declined between", []step{{ok, 1 << 20, false}, {chunked, 1 << 20, false}, {ok, 1 << 20, true}}},
		{"too long a head to keep", []step{{long, 1 << 20, false}, {long, 1 << 20, false}}},
		// A third miss in a row is not kept (relearn): every answer may differ.
		{"three new heads", []step{{ok, 1 << 20, false}, {later, 1 << 20, false}, {limited, 1 << 20, false}, {limited, 1 << 20, false}, {later, 1 << 20, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m plainMemo
			for i, st := range tt.steps {
				in := []byte(st.in)
				hits := m.hits
				got, gotOK := m.read(in, readBufferSize, st.maxBody)
				want, wantOK := readPlain(in, readBufferSize, st.maxBody)
				if gotOK != wantOK || !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d: %v %+v, readPlain %v %+v", i, gotOK, got, wantOK, want)
				}
				if hit := m.hits > hits; hit != st.hit {
					t.Errorf("step %d: from the memo %v, want %v", i, hit, st.hit)
				}
			}
		})
	}
}

// FuzzPlainMemo reads two answers, a and b (as tokens, see plainTokens), in the order the bits
// of order give, through one memo and with readPlain: the two must agree on every answer.
func FuzzPlainMemo(f *testing.F) {
	// "HTTP/1.1 200 OK", "Content-Length: 1", a blank line and "1" (or "2"); a 429 with a limit.
	f.Add(uint8(0b0110), []byte{0, 7, 26, 30, 30, 26}, []byte{0, 7, 26, 30, 30, 27})
	f.Add(uint8(0b0011), []byte{1, 15, 26, 30, 7, 26, 30, 30, 26}, []byte{0, 7, 26, 30, 30, 26})
	f.Fuzz(func(t *testing.T, order uint8, a, b []byte) {
		tokens := plainTokens()
		var in [2][]byte
		for k, raw := range [][]byte{a, b} {
			for _, c := range raw {
				in[k] = append(in[k], tokens[int(c)%len(tokens)]...)
			}
		}
		var m plainMemo
		for i := range 8 {
			x := in[order>>i&1]
			got, gotOK := m.read(x, readBufferSize, 64)
			want, wantOK := readPlain(x, readBufferSize, 64)
			if gotOK != wantOK || !reflect.DeepEqual(got, want) {
				t.Fatalf("answer %d %q: %v %+v, readPlain %v %+v", i, x, gotOK, got, wantOK, want)
			}
		}
	})
}
