package engine

import (
	"bufio"
	"bytes"
	"errors"
	"testing"

	"github.com/gobwas/ws"
	"github.com/valyala/fasthttp"
)

// wsFrames writes frames as a server sends them (unmasked), or masked when mask is set.
func wsFrames(tb testing.TB, mask bool, frames ...ws.Frame) []byte {
	tb.Helper()
	var b bytes.Buffer
	for _, f := range frames {
		if mask {
			f = ws.MaskFrameInPlace(ws.Frame{Header: f.Header, Payload: bytes.Clone(f.Payload)})
		}
		if err := ws.WriteFrame(&b, f); err != nil {
			tb.Fatal(err)
		}
	}
	return b.Bytes()
}

// fragment is a data frame of op (OpContinuation after the first), fin when it is the last.
func fragment(op ws.OpCode, fin bool, p string) ws.Frame {
	return ws.Frame{Header: ws.Header{Fin: fin, OpCode: op, Length: int64(len(p))}, Payload: []byte(p)}
}

// TestWSReader: what a reader makes of each kind of frame a node may send.
func TestWSReader(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frames []byte
		msg    string // the message read; "" when an error comes first
		pongs  string // the pings' payloads answered, joined
		err    func(error) bool
	}{
		// One text frame is one message.
		{name: "one frame", frames: wsFrames(t, false, ws.NewTextFrame([]byte(`{"id":1}`))), msg: `{"id":1}`},
		// A masked frame (no server should, but it reads) is unmasked.
		{name: "masked", frames: wsFrames(t, true, ws.NewTextFrame([]byte(`{"id":2}`))), msg: `{"id":2}`},
		// Fragments are joined, and a ping between them is answered with its payload.
		{name: "fragments and a ping", frames: wsFrames(t, false, fragment(ws.OpText, false, `{"id"`),
			ws.NewPingFrame([]byte("hi")), fragment(ws.OpContinuation, false, `:3`), fragment(ws.OpContinuation, true, `}`)),
			msg: `{"id":3}`, pongs: "hi"},
		// A close frame ends the connection with its code, as ws_closed.
		{name: "close 1001", frames: wsFrames(t, false, ws.NewCloseFrame(ws.NewCloseFrameBody(ws.StatusGoingAway, "bye"))),
			err: func(err error) bool {
				var ce *wsCloseError
				return errors.As(err, &ce) && ce.code == ws.StatusGoingAway && errors.Is(err, errWSClosed)
			}},
		// A close frame without a body says no status (1005).
		{name: "close without a code", frames: wsFrames(t, false, ws.NewCloseFrame(nil)),
			err: func(err error) bool { return wsErrClass(err) == "close 1005" }},
		// A message over the limit is given up before it is read: toolarge.
		{name: "too large", frames: wsFrames(t, false, fragment(ws.OpText, false, "0123456789"), fragment(ws.OpContinuation, true, "0123456789")),
			err: func(err error) bool { return errors.Is(err, fasthttp.ErrBodyTooLarge) && wsErrClass(err) == "toolarge" }},
		// A control frame may not carry more than 125 bytes; one that claims more is not
		// allocated for.
		{name: "huge ping", frames: []byte{0x89, 0x7f, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff},
			err: func(err error) bool { return errors.Is(err, ws.ErrProtocolControlPayloadOverflow) }},
		// A connection cut inside a frame is the transport's EOF.
		{name: "cut short", frames: wsFrames(t, false, ws.NewTextFrame([]byte(`{"id":4}`)))[:5],
			err: func(err error) bool { return wsErrClass(err) == "eof" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pongs []byte
			r := wsReader{br: bufio.NewReader(bytes.NewReader(tc.frames)), limit: 15,
				pong: func(p []byte) { pongs = append(pongs, p...) }}
			msg, head, err := r.next(nil)
			switch {
			case tc.err != nil && (err == nil || !tc.err(err)):
				t.Errorf("error %v (%T) is not the one wanted", err, err)
			case tc.err == nil && (err != nil || string(msg) != tc.msg || head < 2):
				t.Errorf("read %q (headers %d bytes), %v; want %q", msg, head, err, tc.msg)
			case string(pongs) != tc.pongs:
				t.Errorf("pongs %q, want %q", pongs, tc.pongs)
			}
		})
	}
}

// TestWSReaderAllocates: once its buffer has grown, reading a message allocates nothing.
func TestWSReaderAllocates(t *testing.T) {
	one := wsFrames(t, false, ws.NewTextFrame([]byte(`{"jsonrpc":"2.0","method":"eth_subscription","params":{}}`)))
	stream := bytes.NewReader(nil)
	r := wsReader{br: bufio.NewReader(stream), limit: 1 << 20}
	msg, _, _ := r.next(nil)
	if n := testing.AllocsPerRun(100, func() {
		stream.Reset(one)
		var err error
		if msg, _, err = r.next(msg); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%.1f allocations a message", n)
	}
}

// FuzzWSReader: whatever a node sends, the reader returns a message within its limit or an
// error, and never panics.
func FuzzWSReader(f *testing.F) {
	f.Add(wsFrames(f, false, ws.NewTextFrame([]byte(`{"id":1}`))))
	f.Add(wsFrames(f, true, fragment(ws.OpText, false, "ab"), ws.NewPingFrame(nil), fragment(ws.OpContinuation, true, "c")))
	f.Add(wsFrames(f, false, ws.NewCloseFrame(ws.NewCloseFrameBody(ws.StatusNormalClosure, ""))))
	f.Add([]byte{0x81, 0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := wsReader{br: bufio.NewReader(bytes.NewReader(b)), limit: 64, pong: func([]byte) {}}
		for range 8 {
			msg, _, err := r.next(nil)
			if err != nil {
				return
			}
			if len(msg) > 64 {
				t.Fatalf("a message of %d bytes past the limit of 64", len(msg))
			}
		}
	})
}
