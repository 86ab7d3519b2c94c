package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

const (
	frameTestHeader = 8 << 10 // the engine's readBufferSize
	frameTestBody   = 1 << 20
)

// frameCase is one answer for the framer: where it ends, why, and what fasthttp then reads.
type frameCase struct {
	name      string
	in        string
	head      bool
	eof       bool // the connection closes after in
	maxHeader int  // 0: frameTestHeader
	maxBody   int  // 0: frameTestBody
	n         int  // the answer's end; -1: len(in); 0: more bytes needed
	unread    int  // bytes of in[:n] fasthttp leaves unread (see answerFrame.unread)
	verdict   frameVerdict
	body      string           // frameWhole: the body fasthttp reads
	err       func(error) bool // if set, fasthttp's error must satisfy it
}

func (c frameCase) limits() (maxHeader, maxBody int) {
	maxHeader, maxBody = c.maxHeader, c.maxBody
	if maxHeader == 0 {
		maxHeader = frameTestHeader
	}
	if maxBody == 0 {
		maxBody = frameTestBody
	}
	return maxHeader, maxBody
}

func (c frameCase) end() int {
	if c.n < 0 {
		return len(c.in)
	}
	return c.n
}

const (
	hdrLen5     = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
	hdrChunked  = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	trailerTail = "0;last\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n"
)

func frameCases() []frameCase {
	// A header block of exactly the limit, and one byte over it.
	pad := func(total int) string {
		head := "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: "
		return head + strings.Repeat("p", total-len(head)-4) + "\r\n\r\n"
	}
	interims := strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", frameMaxInterim)
	tooBig := func(err error) bool { return errors.Is(err, fasthttp.ErrBodyTooLarge) }
	return []frameCase{
		// Content-Length.
		{name: "length", in: hdrLen5 + "hello", n: -1, verdict: frameWhole, body: "hello"},
		{name: "length zero", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", n: -1, verdict: frameWhole},
		{name: "length, name case and blanks", in: "HTTP/1.1 200 OK\r\ncontent-LENGTH:  \t5 \t\r\n\r\nhello", n: -1, verdict: frameWhole, body: "hello"},
		{name: "length, space before the colon", in: "HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello", n: -1, verdict: frameWhole, body: "hello"},
		{name: "length, leading zeros", in: "HTTP/1.1 200 OK\r\nContent-Length: 0005\r\n\r\nhello", n: -1, verdict: frameWhole, body: "hello"},
		{name: "length, folded onto a continuation line", in: "HTTP/1.1 200 OK\r\nContent-Length:\r\n 5\r\n\r\nhello", n: -1, verdict: frameWhole, body: "hello"},
		{name: "length, LF line ends before the CRLFCRLF", in: "HTTP/1.1 200 OK\nContent-Length: 5\nX: y\r\n\r\nhello", n: -1, verdict: frameWhole, body: "hello"},
		{name: "length, fields end at LF LF before the CRLFCRLF", in: "HTTP/1.1 200 OK\r\nContent-Length: 4\n\nab\r\n\r\nnext", n: 42, unread: 2, verdict: frameWhole, body: "ab\r\n"},
		{name: "length ends before the CRLFCRLF fasthttp needs", in: "HTTP/1.1 200 OK\r\nContent-Length: 1\n\r\n\r\nab", n: 39, unread: 1, verdict: frameWhole, body: "\r"},
		{name: "trailer ends before the CRLFCRLF fasthttp needs", in: hdrChunked + "0\r\nX: y\n\nz\r\n\r\n", n: -1, unread: 5, verdict: frameWhole},
		{name: "interim answer ends before the CRLFCRLF fasthttp needs", in: "HTTP/1.1 100 C\r\nA: b\n\nHTTP/1.1 204 X\n\r\nzz\r\n\r\n", n: -1, unread: 6, verdict: frameWhole},
		{name: "fields ending in LF LF wait for a CRLFCRLF", in: "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi", n: 0},
		{name: "empty lines before the status line", in: "\r\n\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi", n: -1, verdict: frameWhole, body: "hi"},
		{name: "no fields at all", in: "HTTP/1.1 204 No Content\r\n\r\n", n: -1, verdict: frameWhole},
		{name: "status 000 reads as 200", in: "HTTP/1.1 000 X\r\nContent-Length: 1\r\n\r\nz", n: -1, verdict: frameWhole, body: "z"},
		{name: "connection close with a length", in: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabcEXTRA", n: 60, verdict: frameWhole, body: "abc"},
		{name: "bytes after the answer", in: hdrLen5 + "hello" + hdrLen5 + "world", n: len(hdrLen5) + 5, verdict: frameWhole, body: "hello"},
		{name: "length at maxBody", in: hdrLen5 + "hello", maxBody: 5, n: -1, verdict: frameWhole, body: "hello"},

		// Chunked.
		{name: "chunked", in: hdrChunked + "5\r\nhello\r\n0\r\n\r\n", n: -1, verdict: frameWhole, body: "hello"},
		{
			name: "chunked with extensions and trailers",
			in:   hdrChunked + "4;name=value\r\nWiki\r\n5 \t\r\npedia\r\nE;x;y=\"z\"\r\n in\r\n\r\nchunks.\r\n" + trailerTail,
			n:    -1, verdict: frameWhole, body: "Wikipedia in\r\n\r\nchunks.",
		},
		{name: "chunked, upper-case hex and value", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: CHUNKED\r\n\r\nA\r\n0123456789\r\n000\r\n\r\n", n: -1, verdict: frameWhole, body: "0123456789"},
		{name: "chunked wins over length", in: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", n: -1, verdict: frameWhole, body: "ok"},
		{name: "chunked, then bytes after", in: hdrChunked + "2\r\nok\r\n0\r\n\r\n" + hdrLen5 + "hello", n: len(hdrChunked) + 12, verdict: frameWhole, body: "ok"},
		{name: "chunked at maxBody", in: hdrChunked + "5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n", maxBody: 8, n: -1, verdict: frameWhole, body: "helloabc"},
		{name: "HTTP/1.0 ignores Transfer-Encoding", in: "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc", n: -1, verdict: frameWhole, body: "abc"},
		{name: "HTTP/1.0 chunk bytes are a close-delimited body", in: "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", eof: true, n: -1, verdict: frameWhole, body: "2\r\nok\r\n0\r\n\r\n"},

		// Interim answers.
		{name: "100 Continue then 200", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", n: -1, verdict: frameWhole, body: "ok"},
		{name: "103 Early Hints then 200", in: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", n: -1, verdict: frameWhole, body: "ok"},
		{name: "an interim answer's length is no body", in: "HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", n: -1, verdict: frameWhole, body: "ok"},
		{name: "100 interim answers then 200", in: interims + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", n: -1, verdict: frameWhole, body: "ok"},
		{name: "101 interim answers", in: interims + "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n", n: len(interims) + 25, verdict: frameBad},
		{name: "101 is final, without a body", in: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nContent-Length: 9\r\n\r\n\x81\x05hello", n: 75, verdict: frameWhole},
		{name: "HEAD's interim answers are skipped too", in: "HTTP/1.1 100 Continue\r\n\r\n" + hdrLen5, head: true, n: -1, verdict: frameWhole},

		// Answers without a body.
		{name: "204 with a length", in: "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", n: -1, verdict: frameWhole},
		{name: "304 with a length", in: "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\nnext", n: 49, verdict: frameWhole},
		{name: "304 chunked", in: "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", n: -1, verdict: frameWhole},
		{name: "HEAD with a length", in: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", head: true, n: -1, verdict: frameWhole},
		{name: "HEAD with a length above maxBody", in: "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", head: true, maxBody: 10, n: -1, verdict: frameWhole},
		{name: "HEAD chunked", in: hdrChunked, head: true, n: -1, verdict: frameWhole},
		{name: "HEAD close-delimited", in: "HTTP/1.1 200 OK\r\n\r\n", head: true, n: -1, verdict: frameWhole},

		// Close-delimited.
		{name: "close-delimited needs the close", in: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close", n: 0},
		{name: "close-delimited at the close", in: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close", eof: true, n: -1, verdict: frameWhole, body: "until close"},
		{name: "close-delimited, empty", in: "HTTP/1.1 200 OK\r\n\r\n", eof: true, n: -1, verdict: frameWhole},
		{name: "close-delimited at maxBody", in: "HTTP/1.1 200 OK\r\n\r\nabcd", maxBody: 4, eof: true, n: -1, verdict: frameWhole, body: "abcd"},

		// Limits.
		{name: "header at the limit", in: pad(frameTestHeader), n: -1, verdict: frameWhole},
		{name: "header over the limit", in: pad(frameTestHeader + 1), n: frameTestHeader, verdict: frameTooLarge, err: isSmallBuffer},
		{name: "status line over the limit", in: "HTTP/1.1 200 " + strings.Repeat("x", 200), maxHeader: 64, n: 64, verdict: frameTooLarge, err: isSmallBuffer},
		{name: "interim answer then header over the limit", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX: " + strings.Repeat("x", 100) + "\r\n\r\n", maxHeader: 64, n: 25 + 64, verdict: frameTooLarge, err: isSmallBuffer},
		{name: "length above maxBody", in: hdrLen5 + "hello", maxBody: 4, n: len(hdrLen5), verdict: frameTooLarge, err: tooBig},
		{name: "chunked above maxBody", in: hdrChunked + "5\r\nhello\r\n4\r\nabcd\r\n0\r\n\r\n", maxBody: 8, n: len(hdrChunked) + 13, verdict: frameTooLarge, err: tooBig},
		{name: "close-delimited above maxBody", in: "HTTP/1.1 200 OK\r\n\r\nabcdefgh", maxBody: 4, n: 24, verdict: frameTooLarge, err: tooBig},
		{name: "trailer over the limit", in: hdrChunked + "0\r\nX: " + strings.Repeat("t", 100) + "\r\n\r\n", maxHeader: 64, n: len(hdrChunked) + 3 + 64, verdict: frameTooLarge, err: isSmallBuffer},
		{name: "chunk-size line over the limit", in: hdrChunked + "5;" + strings.Repeat("e", 100) + "\r\nhello\r\n0\r\n\r\n", maxHeader: 64, n: len(hdrChunked) + 64, verdict: frameTooLarge},

		// Malformed status lines: the answer ends with the line.
		{name: "status code of two digits", in: "HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n", n: 16, verdict: frameBad},
		{name: "status code of four digits", in: "HTTP/1.1 2000 OK\r\n\r\n", n: 18, verdict: frameBad},
		{name: "status code not digits", in: "HTTP/1.1 2x0 OK\r\n", n: -1, verdict: frameBad},
		{name: "unknown protocol", in: "HTTX/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", n: 17, verdict: frameBad},
		{name: "no space in the status line", in: "garbage\r\nmore", n: 9, verdict: frameBad},

		// Malformed fields: the answer ends with the block.
		{name: "length not a number", in: "HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello", n: 39, verdict: frameBad},
		{name: "length negative", in: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", n: -1, verdict: frameBad},
		{name: "length empty", in: "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n", n: -1, verdict: frameBad},
		{name: "length over an int", in: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", n: -1, verdict: frameBad},
		{name: "length twice", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", n: 57, verdict: frameBad},
		{name: "length split by a continuation", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n 0\r\n\r\nhello", n: 42, verdict: frameBad},
		{name: "transfer-encoding not chunked", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", n: -1, verdict: frameBad},
		{name: "transfer-encoding twice", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", n: 75, verdict: frameBad},
		{name: "field without a colon", in: "HTTP/1.1 200 OK\r\nNoColon\r\n\r\n", n: -1, verdict: frameBad},
		{name: "fields start with a blank", in: "HTTP/1.1 200 OK\r\n X: y\r\n\r\n", n: -1, verdict: frameBad},
		{name: "control byte in a value", in: "HTTP/1.1 200 OK\r\nX: a\x01b\r\nContent-Length: 0\r\n\r\n", n: -1, verdict: frameBad},
		{name: "bad field in an interim answer", in: "HTTP/1.1 100 Continue\r\nContent-Length: x\r\n\r\nHTTP/1.1 200 OK\r\n\r\n", n: 44, verdict: frameBad},

		// Malformed chunks: the answer ends at the byte fasthttp refuses.
		{name: "chunk size not hex", in: hdrChunked + "zz\r\n", n: len(hdrChunked) + 1, verdict: frameBad},
		{name: "chunk size of too many digits", in: hdrChunked + strings.Repeat("0", frameMaxHexDigits) + "1\r\nx\r\n", n: len(hdrChunked) + frameMaxHexDigits + 1, verdict: frameBad},
		{name: "chunk size of the most digits", in: hdrChunked + strings.Repeat("0", frameMaxHexDigits-1) + "1\r\nx\r\n0\r\n\r\n", n: -1, verdict: frameWhole, body: "x"},
		{name: "chunk extension after a blank", in: hdrChunked + "5 ;x\r\nhello\r\n0\r\n\r\n", n: len(hdrChunked) + 3, verdict: frameBad},
		{name: "chunk size line ends in LF", in: hdrChunked + "5\nhello\r\n0\r\n\r\n", n: len(hdrChunked) + 2, verdict: frameBad},
		{name: "chunk size CR without LF", in: hdrChunked + "5\rXhello\r\n0\r\n\r\n", n: len(hdrChunked) + 3, verdict: frameBad},
		{name: "chunk data without its CRLF", in: hdrChunked + "5\r\nhelloXY0\r\n\r\n", n: len(hdrChunked) + 10, verdict: frameBad},
		{name: "trailer with a framing field", in: hdrChunked + "0\r\nContent-Length: 1\r\n\r\n", n: -1, verdict: frameBad},
		{name: "trailer without a colon", in: hdrChunked + "0\r\nbad\r\n\r\n", n: -1, verdict: frameBad},

		// The connection closes in the middle.
		{name: "close in the status line", in: "HTTP/1.1 20", eof: true, n: -1, verdict: frameCut},
		{name: "close in the fields", in: "HTTP/1.1 200 OK\r\nContent-Le", eof: true, n: -1, verdict: frameCut},
		{name: "close before the CRLFCRLF", in: "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi", eof: true, n: -1, verdict: frameCut},
		{name: "close in a length body", in: hdrLen5 + "hel", eof: true, n: -1, verdict: frameCut},
		{name: "close in a chunk-size line", in: hdrChunked + "5;ext", eof: true, n: -1, verdict: frameCut},
		{name: "close in chunk data", in: hdrChunked + "5\r\nhel", eof: true, n: -1, verdict: frameCut},
		{name: "close before the last chunk", in: hdrChunked + "5\r\nhello\r\n", eof: true, n: -1, verdict: frameCut},
		{name: "close in the trailers", in: hdrChunked + "0\r\nX-Checksum: abc\r\n", eof: true, n: -1, verdict: frameCut},
		{name: "close after an interim answer", in: "HTTP/1.1 100 Continue\r\n\r\n", eof: true, n: -1, verdict: frameCut},
		{name: "close after empty lines", in: "\r\n\r\n", eof: true, n: -1, verdict: frameCut},
	}
}

func TestAnswerFrameTable(t *testing.T) {
	for _, c := range frameCases() {
		t.Run(c.name, func(t *testing.T) {
			maxHeader, maxBody := c.limits()
			in := []byte(c.in)
			var f answerFrame
			f.reset(c.head)
			if got := f.scan(in, c.eof, maxHeader, maxBody); got != c.end() || f.outcome() != c.verdict {
				t.Fatalf("scan = %d (%v), want %d (%v)", got, f.outcome(), c.end(), c.verdict)
			}
			checkFramePrefixes(t, c, in)
			checkFrameSplits(t, c, in)
			if c.end() == 0 {
				return
			}
			if f.unread() != c.unread {
				t.Errorf("unread = %d, want %d", f.unread(), c.unread)
			}
			body, err := frameParse(in[:c.end()], c.head, c.unread, maxHeader, maxBody)
			checkFasthttp(t, c.verdict, err, in[:c.end()])
			if c.verdict == frameWhole && string(body) != c.body {
				t.Errorf("fasthttp's body = %q, want %q", body, c.body)
			}
			if c.err != nil && !c.err(err) {
				t.Errorf("fasthttp's error = %v", err)
			}
		})
	}
}

// checkFramePrefixes feeds in a byte at a time: scan must say "more" until the answer's end
// and then the end, whatever follows.
func checkFramePrefixes(t *testing.T, c frameCase, in []byte) {
	t.Helper()
	maxHeader, maxBody := c.limits()
	var f answerFrame
	f.reset(c.head)
	for i := 0; i <= len(in); i++ {
		got := f.scan(in[:i], c.eof && i == len(in), maxHeader, maxBody)
		want := 0
		if c.end() > 0 && i >= c.end() {
			want = c.end()
		}
		if got != want {
			t.Fatalf("scan of the first %d bytes = %d, want %d", i, got, want)
		}
	}
}

// checkFrameSplits feeds in in two parts, split at every byte.
func checkFrameSplits(t *testing.T, c frameCase, in []byte) {
	t.Helper()
	maxHeader, maxBody := c.limits()
	var f answerFrame
	for k := 0; k <= len(in); k++ {
		f.reset(c.head)
		f.scan(in[:k], false, maxHeader, maxBody)
		if got := f.scan(in, c.eof, maxHeader, maxBody); got != c.end() || f.outcome() != c.verdict {
			t.Fatalf("split at %d: scan = %d (%v), want %d (%v)", k, got, f.outcome(), c.end(), c.verdict)
		}
	}
}

// frameParse is what the event loop does with a whole answer: fasthttp's parse over a reader of
// maxHeader bytes holding exactly b. When it succeeds, fasthttp must have read all of b but
// the last unread bytes.
func frameParse(b []byte, head bool, unread, maxHeader, maxBody int) ([]byte, error) {
	var resp fasthttp.Response
	resp.SkipBody = head
	src := bytes.NewReader(b)
	br := bufio.NewReaderSize(src, maxHeader)
	err := resp.ReadLimitBody(br, maxBody)
	if left := src.Len() + br.Buffered(); err == nil && left != unread {
		err = fmt.Errorf("fasthttp left %d bytes of the answer unread, want %d", left, unread)
	}
	return append([]byte(nil), resp.Body()...), err
}

// checkFasthttp checks that fasthttp's parse of an answer the framer ended agrees with why it
// ended.
func checkFasthttp(t *testing.T, v frameVerdict, err error, b []byte) {
	t.Helper()
	switch v {
	case frameWhole:
		if err != nil && !isTrailerNameErr(err) {
			t.Errorf("whole answer %q: fasthttp: %v", b, err)
		}
	case frameBad:
		if err == nil || isShortRead(err) {
			t.Errorf("malformed answer %q: fasthttp: %v, want a parse error", b, err)
		}
	case frameTooLarge, frameCut:
		if err == nil {
			t.Errorf("answer %q (%v): fasthttp parsed it", b, v)
		}
	}
}

// isShortRead reports the errors fasthttp gives when its reader ran out before the answer did.
// ErrBrokenChunk does not unwrap the error it wraps, so its text is read instead.
func isShortRead(err error) bool {
	var broken fasthttp.ErrBrokenChunk
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, fasthttp.ErrNeedMore) ||
		errors.As(err, &broken) && strings.Contains(broken.Error(), "EOF")
}

func isSmallBuffer(err error) bool {
	var small *fasthttp.ErrSmallBuffer
	return errors.As(err, &small)
}

// isTrailerNameErr reports fasthttp refusing a name in a Trailer field or in the trailers,
// which the framer leaves to fasthttp (see scanFields).
func isTrailerNameErr(err error) bool {
	return errors.Is(err, fasthttp.ErrBadTrailer) || strings.Contains(err.Error(), "forbidden trailer key")
}

func (v frameVerdict) String() string {
	switch v {
	case frameOpen:
		return "open"
	case frameWhole:
		return "whole"
	case frameBad:
		return "bad"
	case frameTooLarge:
		return "too large"
	case frameCut:
		return "cut"
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

func TestAnswerFrameEmptyAtClose(t *testing.T) {
	var f answerFrame
	f.reset(false)
	if got := f.scan(nil, true, frameTestHeader, frameTestBody); got != 0 || f.outcome() != frameOpen {
		t.Fatalf("scan(nil, eof) = %d (%v), want 0: no answer at all", got, f.outcome())
	}
}

func TestAnswerFrameReset(t *testing.T) {
	var f answerFrame
	f.reset(false)
	in := []byte(hdrLen5 + "hello")
	if got := f.scan(in, false, frameTestHeader, frameTestBody); got != len(in) {
		t.Fatalf("scan = %d, want %d", got, len(in))
	}
	f.reset(true)
	if got := f.scan(in, false, frameTestHeader, frameTestBody); got != len(hdrLen5) {
		t.Fatalf("after reset(true): scan = %d, want %d", got, len(hdrLen5))
	}
}

// TestAnswerFrameBytes puts every byte value in each place where fasthttp judges single bytes
// (a field name, a value, Content-Length, Transfer-Encoding, a chunk-size line, a trailer) and
// checks that the framer and fasthttp agree on each.
func TestAnswerFrameBytes(t *testing.T) {
	forms := []string{
		"HTTP/1.1 200 OK\r\nA%cB: 1\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nX: a%cb\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 1%c\r\n\r\nab",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunke%c\r\n\r\n0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: %chunked\r\n\r\n0\r\n\r\n",
		hdrChunked + "1%c\r\nx\r\n0\r\n\r\n",
		hdrChunked + "1;%c\r\nx\r\n0\r\n\r\n",
		hdrChunked + "0\r\nT%c: v\r\n\r\n",
		"HTTP/1.1 %c00 OK\r\nContent-Length: 0\r\n\r\n",
		"%cTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
	}
	for _, form := range forms {
		for c := range 256 {
			in := []byte(strings.Replace(form, "%c", string([]byte{byte(c)}), 1))
			checkFrameAgrees(t, in, false, frameTestHeader, frameTestBody)
		}
	}
}

// checkFrameAgrees scans in whole and checks fasthttp's parse of what it says agrees.
func checkFrameAgrees(t *testing.T, in []byte, head bool, maxHeader, maxBody int) {
	t.Helper()
	for _, eof := range []bool{false, true} {
		var f answerFrame
		f.reset(head)
		n := f.scan(in, eof, maxHeader, maxBody)
		if n == 0 {
			continue
		}
		_, err := frameParse(in[:n], head, f.unread(), maxHeader, maxBody)
		checkFasthttp(t, f.outcome(), err, in[:n])
	}
}

// TestAnswerFrameLimits runs the fuzz checks over the table's answers with header limits
// around every length of their blocks, and body limits around their bodies' lengths, for GET
// and HEAD: where a limit falls is where the framer and fasthttp most easily disagree.
func TestAnswerFrameLimits(t *testing.T) {
	for _, c := range frameCases() {
		in := []byte(c.in)
		if len(in) > 1000 {
			continue // the large ones are only their limit's cases
		}
		for maxHeader := 16; maxHeader <= 96; maxHeader++ {
			for _, maxBody := range []int{1, 2, 4, 5, 8, 13, frameTestBody} {
				for _, head := range []bool{false, true} {
					checkFuzzFrame(t, in, len(in)/2, head, maxHeader, maxBody)
				}
			}
		}
	}
}

func TestAnswerFrameAllocs(t *testing.T) {
	var f answerFrame
	for _, c := range frameCases() {
		maxHeader, maxBody := c.limits()
		in := []byte(c.in)
		allocs := testing.AllocsPerRun(20, func() {
			f.reset(c.head)
			for i := 0; i <= len(in); i += 7 {
				f.scan(in[:i], false, maxHeader, maxBody)
			}
			f.scan(in, c.eof, maxHeader, maxBody)
		})
		if allocs != 0 {
			t.Errorf("%s: scan allocates %.1f times", c.name, allocs)
		}
	}
}

// frameTokens are pieces of answers: FuzzAnswerFrame also reads its bytes as a choice of them,
// since random bytes seldom make the framing that matters.
func frameTokens() []string {
	return []string{
		"HTTP/1.1 200 OK\r\n", "HTTP/1.1 100 Continue\r\n", "HTTP/1.0 200 OK\r\n", "HTTP/1.1 204 N\r\n",
		"HTTP/1.1 304 N\r\n", "HTTP/1.1 101 S\r\n", "HTTP/1.1 103 E\n", "HTTP/1.1 000 Z\r\n",
		"Content-Length: ", "Transfer-Encoding: ", "chunked", "Trailer: ", "X-A: ", "content-length :",
		"0", "1", "2", "5", "a", "F", "10", "\r\n", "\n", "\r", " ", "\t", ";", ":", ";ext=1",
		"hello", "ok", "\r\n\r\n", "0\r\n\r\n", "5\r\nhello\r\n", "x", "\x00", "\xff",
	}
}

// frameFromTokens makes an answer of in, a byte a token.
func frameFromTokens(in []byte) []byte {
	tokens := frameTokens()
	var b []byte
	for _, c := range in {
		b = append(b, tokens[int(c)%len(tokens)]...)
	}
	return b
}

// FuzzAnswerFrame checks, for any bytes (taken as they are, and as tokens), limits and split:
// no panic; n ≤ len(buf); the same end whether the bytes come at once, in two parts or a byte
// at a time; and fasthttp's parse of the answer the framer ended agrees with why it ended: a
// whole one parses (and fasthttp reads all of it but the unread bytes), a malformed one fails
// at once rather than wanting more bytes, a cut or too large one fails.
func FuzzAnswerFrame(f *testing.F) {
	for _, c := range frameCases() {
		f.Add([]byte(c.in), uint16(len(c.in)/2), uint16(frameTestHeader-16), uint16(c.maxBody), c.head)
		f.Add([]byte(c.in), uint16(1), uint16(48), uint16(7), c.head)
	}
	f.Fuzz(func(t *testing.T, in []byte, split, hdr, body uint16, head bool) {
		// The header limit is the size of fasthttp's reader, which is at least 16 bytes; the
		// body limit is never 0, which would let fasthttp allocate what a length announces.
		maxHeader := 16 + int(hdr)%(frameTestHeader-15)
		maxBody := 1 + int(body)
		checkFuzzFrame(t, in, int(split), head, maxHeader, maxBody)
		checkFuzzFrame(t, frameFromTokens(in), int(split), head, maxHeader, maxBody)
	})
}

func checkFuzzFrame(t *testing.T, in []byte, split int, head bool, maxHeader, maxBody int) {
	t.Helper()
	var whole answerFrame
	whole.reset(head)
	n := whole.scan(in, false, maxHeader, maxBody)
	if n < 0 || n > len(in) {
		t.Fatalf("n = %d for %d bytes", n, len(in))
	}
	if (n == 0) != (whole.outcome() == frameOpen) {
		t.Fatalf("n = %d with outcome %v", n, whole.outcome())
	}
	checkFuzzPieces(t, in, split, head, maxHeader, maxBody, n)
	checkFuzzClose(t, in, head, maxHeader, maxBody, n)
	checkFrameAgrees(t, in, head, maxHeader, maxBody)
}

// checkFuzzPieces checks that in fed in two parts, and a byte at a time, ends at n too.
func checkFuzzPieces(t *testing.T, in []byte, split int, head bool, maxHeader, maxBody, n int) {
	t.Helper()
	var f answerFrame
	f.reset(head)
	k := split % (len(in) + 1)
	if got := f.scan(in[:k], false, maxHeader, maxBody); got != 0 && got != n {
		t.Fatalf("first %d bytes: scan = %d, all at once %d", k, got, n)
	}
	if got := f.scan(in, false, maxHeader, maxBody); got != n {
		t.Fatalf("split at %d: scan = %d, all at once %d", k, got, n)
	}
	f.reset(head)
	for i := 0; i <= len(in); i++ {
		got := f.scan(in[:i], false, maxHeader, maxBody)
		if want := n * b2i(n > 0 && i >= n); got != want {
			t.Fatalf("first %d bytes: scan = %d, want %d (all at once %d)", i, got, want, n)
		}
	}
}

// checkFuzzClose checks the close changes only an answer that was not whole.
func checkFuzzClose(t *testing.T, in []byte, head bool, maxHeader, maxBody, n int) {
	t.Helper()
	var f answerFrame
	f.reset(head)
	got := f.scan(in, true, maxHeader, maxBody)
	want := n
	if n == 0 {
		want = len(in)
	}
	if got != want {
		t.Fatalf("scan at the close = %d (%v), want %d", got, f.outcome(), want)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
