package engine

// Reading a WebSocket connection's messages, for both of its readers: a request/response link
// (ws_link.go) and a subscriber (subscribe_conn.go). Frames are read with gobwas/ws's header
// function into the caller's buffer, fragments joined, so a message costs no allocation once
// the buffer has grown; pings are answered, a close frame ends the connection with its code.

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/gobwas/ws"
	"github.com/valyala/fasthttp"
)

// wsCloseError is a close frame from the server: the connection is over (errWSClosed), with
// the code it gave (1005, "no status", when it gave none).
type wsCloseError struct{ code ws.StatusCode }

func (e *wsCloseError) Error() string {
	return fmt.Sprintf("the server closed the WebSocket connection (%d)", int(e.code))
}

func (e *wsCloseError) Unwrap() error { return errWSClosed }

// wsReader reads one connection's data messages.
type wsReader struct {
	br    *bufio.Reader
	limit int64          // a message over it ends the connection (fasthttp.ErrBodyTooLarge)
	pong  func(p []byte) // answers a ping with its payload
	hbuf  [ws.MaxHeaderSize - 2]byte
}

// next reads the next data message into msg's storage (grown when it is short) and returns it
// with the bytes its frames' headers took. Control frames between its fragments are handled
// on the way.
func (r *wsReader) next(msg []byte) (out []byte, head int, err error) {
	msg = msg[:0]
	for {
		h, err := ws.ReadHeaderBuffer(r.br, r.hbuf[:])
		if err != nil {
			return msg, 0, err
		}
		if h.OpCode.IsControl() {
			if err := r.control(h); err != nil {
				return msg, 0, err
			}
			continue
		}
		if h.Length > r.limit-int64(len(msg)) {
			return msg, 0, fmt.Errorf("a WebSocket message of over %d bytes: %w", r.limit, fasthttp.ErrBodyTooLarge)
		}
		start := len(msg)
		msg = grow(msg, start+int(h.Length))
		if _, err := io.ReadFull(r.br, msg[start:]); err != nil {
			return msg, 0, err
		}
		if h.Masked {
			ws.Cipher(msg[start:], h.Mask, 0)
		}
		head += ws.HeaderSize(h)
		if h.Fin {
			return msg, head, nil
		}
	}
}

// control reads a control frame: a ping is answered, a pong ignored, a close is the end.
func (r *wsReader) control(h ws.Header) error {
	if h.Length > ws.MaxControlFramePayloadSize {
		return ws.ErrProtocolControlPayloadOverflow // it could claim any length
	}
	p := make([]byte, h.Length) // rare: its own buffer
	if _, err := io.ReadFull(r.br, p); err != nil {
		return err
	}
	if h.Masked {
		ws.Cipher(p, h.Mask, 0)
	}
	switch h.OpCode {
	case ws.OpPing:
		r.pong(p)
	case ws.OpClose:
		code := ws.StatusNoStatusRcvd
		if len(p) >= 2 {
			code = ws.StatusCode(binary.BigEndian.Uint16(p))
		}
		return &wsCloseError{code: code}
	}
	return nil
}
