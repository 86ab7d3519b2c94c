package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

const plainBody = `{"jsonrpc":"2.0","id":1,"result":"0x1"}`

// plainAnswerOf is an answer with fields and plainBody, its Content-Length last.
func plainAnswerOf(status string, fields ...string) string {
	return "HTTP/1.1 " + status + "\r\n" + strings.Join(fields, "") +
		fmt.Sprintf("Content-Length: %d\r\n\r\n", len(plainBody)) + plainBody
}

// TestReadPlain: the answers JSON-RPC nodes and their proxies send are read without fasthttp,
// and agree with fasthttp's parse; every other kind is left to fasthttp.
func TestReadPlain(t *testing.T) {
	tests := []struct {
		name, in string
		plain    bool
	}{
		{"geth", plainAnswerOf("200 OK", "Content-Type: application/json\r\n", "Vary: Origin\r\n", "Date: Wed, 25 Nov 2026 04:00:00 GMT\r\n"), true},
		{"nginx", plainAnswerOf("200 OK", "Server: nginx/1.22.1\r\n", "Content-Type: application/json\r\n", "Connection: keep-alive\r\n"), true},
		{"nginx 429", "HTTP/1.1 429 Too Many Requests\r\nServer: nginx\r\nContent-Type: text/html\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nslow!", true},
		{"no type", plainAnswerOf("200 OK"), true},
		{"no message", plainAnswerOf("200"), true},
		{"empty message", plainAnswerOf("200 "), true},
		{"odd message", plainAnswerOf("503 Service  Unavailable (try later)"), true},
		{"empty body", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true},
		{"close", plainAnswerOf("200 OK", "Connection: close\r\n"), true},
		{"closed other", plainAnswerOf("200 OK", "Connection: Close\r\n"), true},
		{"limits", plainAnswerOf("429 Too Many Requests", "retry-after: 1\r\n", "X-RATELIMIT-Remaining: 0\r\n", "x-rate-limit-reset:  17 \r\n", "RateLimit-Policy: 10;w=1\r\n"), true},
		{"blanks", plainAnswerOf("200 OK", "X-A:\t a b \t\r\n", "X-Empty:\r\n", "Content-Type:text/plain\r\n"), true},
		{"length first", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: 1\r\n\r\nok", true},
		{"leading zeros", "HTTP/1.1 200 OK\r\nContent-Length: 002\r\n\r\nok", true},
		{"high bytes", plainAnswerOf("200 OK", "X-A: caf\xc3\xa9\r\n"), true},

		{"http/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false},
		{"continue", "HTTP/1.1 100 Continue\r\n\r\n" + plainAnswerOf("200 OK"), false},
		{"no content", "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", false},
		{"not modified", "HTTP/1.1 304 Not Modified\r\nContent-Length: 0\r\n\r\n", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", false},
		{"until close", "HTTP/1.1 200 OK\r\n\r\nok", false},
		{"gzip", plainAnswerOf("200 OK", "Content-Encoding: gzip\r\n"), false},
		{"cookie", plainAnswerOf("200 OK", "Set-Cookie: a=b\r\n"), false},
		{"trailer", plainAnswerOf("200 OK", "Trailer: X-T\r\n"), false},
		{"folded", plainAnswerOf("200 OK", "X-A: a\r\n b\r\n"), false},
		{"bare lf", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", false},
		{"bare lf field", plainAnswerOf("200 OK", "X-A: a\n"), false},
		{"space before colon", plainAnswerOf("200 OK", "X-A : a\r\n"), false},
		{"space in key", plainAnswerOf("200 OK", "X A: a\r\n"), false},
		{"no colon", plainAnswerOf("200 OK", "X-A a\r\n"), false},
		{"two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok", false},
		{"two types", plainAnswerOf("200 OK", "Content-Type: a\r\n", "Content-Type: b\r\n"), false},
		{"two connections", plainAnswerOf("200 OK", "Connection: close\r\n", "Connection: keep-alive\r\n"), false},
		{"signed length", "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok", false},
		{"long length", "HTTP/1.1 200 OK\r\nContent-Length: 0000000000000002\r\n\r\nok", false},
		{"short body", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok", false},
		{"extra bytes", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nok", false},
		{"nul in value", plainAnswerOf("200 OK", "X-A: a\x00b\r\n"), false},
		{"del in value", plainAnswerOf("200 OK", "X-A: a\x7fb\r\n"), false},
		{"tab in message", plainAnswerOf("200 O\tK"), false},
		{"bad code", plainAnswerOf("2x0 OK"), false},
		{"big code", plainAnswerOf("600 OK"), false},
		{"long limit name", plainAnswerOf("200 OK", "X-RateLimit-"+strings.Repeat("a", plainLimitKey)+": 1\r\n"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkPlain(t, []byte(tt.in), readBufferSize, 1<<20); got != tt.plain {
				t.Errorf("read without fasthttp: %v, want %v (%q)", got, tt.plain, tt.in)
			}
		})
	}
}

// TestReadPlainLimits: an answer over the framer's header or body limit goes to fasthttp,
// which reports it; one just within both is read as fasthttp reads it.
func TestReadPlainLimits(t *testing.T) {
	in := []byte(plainAnswerOf("200 OK", "X-A: 1\r\n"))
	head := bytes.Index(in, []byte("\r\n\r\n")) + 4
	for _, tt := range []struct {
		maxHeader, maxBody int
		plain              bool
	}{
		{head, len(plainBody), true},
		{head - 1, len(plainBody), false},
		{head, len(plainBody) - 1, false},
		{head, 0, true}, // no bound
	} {
		if ok := checkPlain(t, in, tt.maxHeader, tt.maxBody); ok != tt.plain {
			t.Errorf("limits %d and %d: read = %v, want %v", tt.maxHeader, tt.maxBody, ok, tt.plain)
		}
	}
}

// TestReadPlainAllocs: reading an answer, its rate-limit headers once seen, allocates nothing.
func TestReadPlainAllocs(t *testing.T) {
	in := []byte(plainAnswerOf("429 Too Many Requests", "Server: nginx\r\n", "Retry-After: 1\r\n"))
	var r rateLimitHeaders
	b := &Batch{}
	a, _ := readPlain(in, readBufferSize, 1<<20)
	a.recordLimits(&r, b)
	allocs := testing.AllocsPerRun(100, func() {
		a, _ := readPlain(in, readBufferSize, 1<<20)
		a.recordLimits(&r, b)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations an answer, want 0", allocs)
	}
}

// checkPlain reads in without fasthttp and, when readPlain takes it, checks that fasthttp's
// parse, as the event loop did it, gives the same: no error, all of in read, and the same
// status, body, size, rate-limit headers and Connection: close. It reports whether readPlain
// took in.
func checkPlain(t *testing.T, in []byte, maxHeader, maxBody int) bool {
	t.Helper()
	a, ok := readPlain(in, maxHeader, maxBody)
	if !ok {
		return false
	}
	var plainEx, fastEx http1Exchange
	pb, fb := &Batch{}, &Batch{}
	plainEx.plain, plainEx.hasPlain = a, true
	got := plainEx.answer(pb)

	// fasthttp's side, on a response that read another answer first, as a slot's does.
	resp := &fastEx.resp
	if _, err := plainParse(resp, []byte("HTTP/1.1 599 Earlier Answer\r\nX-Old: 1\r\nContent-Type: x\r\nServer: s\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx"), readBufferSize, 1<<20); err != nil {
		t.Fatalf("the earlier answer: %v", err)
	}
	left, err := plainParse(resp, in, maxHeader, maxBody)
	if err != nil || left != 0 {
		t.Fatalf("readPlain took %q, fasthttp: %v with %d bytes left", in, err, left)
	}
	want := fastEx.answer(fb)
	if got.status != want.status || !bytes.Equal(got.body, want.body) || got.bytesIn != want.bytesIn {
		t.Errorf("%q:\nreadPlain status %d, %d bytes in, body %q\nfasthttp  status %d, %d bytes in, body %q",
			in, got.status, got.bytesIn, got.body, want.status, want.bytesIn, want.body)
	}
	if a.close != resp.ConnectionClose() {
		t.Errorf("%q: Connection: close %v, fasthttp %v", in, a.close, resp.ConnectionClose())
	}
	if g, w := fmt.Sprint(pb.Headers), fmt.Sprint(fb.Headers); g != w {
		t.Errorf("%q: rate-limit headers %s, fasthttp %s", in, g, w)
	}
	if plainEx.hasPlain {
		t.Error("the exchange still holds the answer after giving it")
	}
	return true
}

// plainParse is the event loop's fasthttp parse of in (loop_slot_linux.go), and what of in it
// left unread.
func plainParse(resp *fasthttp.Response, in []byte, maxHeader, maxBody int) (int, error) {
	resp.Reset()
	src := bytes.NewReader(in)
	br := bufio.NewReaderSize(src, maxHeader)
	err := resp.ReadLimitBody(br, maxBody)
	return src.Len() + br.Buffered(), err
}

// plainTokens are pieces of answers for FuzzPlainAnswer, which reads its bytes as a choice of
// them too: random bytes seldom make an answer readPlain takes.
func plainTokens() []string {
	return []string{
		"HTTP/1.1 200 OK\r\n", "HTTP/1.1 429 Too Many Requests\r\n", "HTTP/1.1 503 \r\n", "HTTP/1.1 200\r\n",
		"HTTP/1.0 200 OK\r\n", "HTTP/1.1 100 Continue\r\n", "HTTP/1.1 204 N\r\n",
		"Content-Length: ", "content-LENGTH:", "Content-Type: ", "Server: ", "Connection: ", "close",
		"keep-alive", "Retry-After: ", "x-ratelimit-remaining: ", "RATELIMIT: ", "X-Rate-Limit-", "Set-Cookie: ",
		"Content-Encoding: ", "Transfer-Encoding: ", "chunked", "Trailer: ", "X-A: ", "Vary: Origin",
		"0", "1", "2", "5", "10", "\r\n", "\n", "\r", " ", "\t", ":", "-", "a", "Z", "hello", "\r\n\r\n",
		"\x00", "\x7f", "\xc3\xa9",
	}
}

// FuzzPlainAnswer checks, for any bytes (as they are, and as tokens) and limits: whenever the
// framer ends a whole answer and readPlain takes it, fasthttp's parse of it agrees.
func FuzzPlainAnswer(f *testing.F) {
	f.Add([]byte(plainAnswerOf("200 OK", "Content-Type: application/json\r\n")), uint16(512), uint16(100))
	f.Add([]byte(plainAnswerOf("429 Too Many Requests", "Retry-After: 1\r\n", "Connection: close\r\n")), uint16(512), uint16(100))
	f.Add([]byte{0, 7, 25, 30, 2, 30, 30, 1}, uint16(512), uint16(100))
	f.Fuzz(func(t *testing.T, in []byte, hdr, body uint16) {
		maxHeader := 16 + int(hdr)%(frameTestHeader-15)
		maxBody := 1 + int(body)
		fuzzPlain(t, in, maxHeader, maxBody)
		var tok []byte
		tokens := plainTokens()
		for _, c := range in {
			tok = append(tok, tokens[int(c)%len(tokens)]...)
		}
		fuzzPlain(t, tok, maxHeader, maxBody)
	})
}

// fuzzPlain is one input of FuzzPlainAnswer: in, and what the framer ends of it, as the loop
// hands them to readPlain. The loop tries readPlain on all it has read before it frames: whatever readPlain takes, the
// framer must end there too.
func fuzzPlain(t *testing.T, in []byte, maxHeader, maxBody int) {
	var fr answerFrame
	fr.reset(false)
	n := fr.scan(in, false, maxHeader, maxBody)
	if _, ok := readPlain(in, maxHeader, maxBody); ok && (fr.outcome() != frameWhole || n != len(in) || fr.unread() != 0) {
		t.Fatalf("readPlain took %q whole, the framer ends it at %d of %d (%v, %d unread)", in, n, len(in), fr.outcome(), fr.unread())
	}
	if fr.outcome() != frameWhole || fr.unread() != 0 {
		return
	}
	checkPlain(t, in[:n], maxHeader, maxBody)
}

// BenchmarkReadPlain reads the bench target's answer (bench/target).
func BenchmarkReadPlain(b *testing.B) {
	in := []byte("HTTP/1.1 200 OK\r\nServer: bench-target\r\nContent-Type: application/json\r\nContent-Length: 66\r\n\r\n" +
		`{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":0},"id":1}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := readPlain(in, readBufferSize, 1<<20); !ok {
			b.Fatal("not read")
		}
	}
}

// BenchmarkPlainMemo reads the same answer through the event loop's memo (plainMemo): again,
// the head the memo keeps; new, a head it does not (readPlain, and the head kept).
func BenchmarkPlainMemo(b *testing.B) {
	in := []byte("HTTP/1.1 200 OK\r\nServer: bench-target\r\nContent-Type: application/json\r\nContent-Length: 66\r\n\r\n" +
		`{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":0},"id":1}`)
	for _, again := range []bool{true, false} {
		name := "new"
		if again {
			name = "again"
		}
		b.Run(name, func(b *testing.B) {
			var m plainMemo
			b.ReportAllocs()
			for b.Loop() {
				m.valid = m.valid && again
				if _, ok := m.read(in, readBufferSize, 1<<20); !ok {
					b.Fatal("not read")
				}
			}
		})
	}
}
