package hostile

// A hostile HTTP/2 target: frames written by hand (golang.org/x/net/http2's Framer and hpack),
// because net/http's server cannot be made to reset a stream with a chosen code or send a
// GOAWAY in the middle of a connection's traffic, as proxies and overloaded servers do.

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// H2Fault is one way an HTTP/2 target misbehaves.
type H2Fault int

const (
	// H2RST answers the request with RST_STREAM carrying Code instead of an answer.
	H2RST H2Fault = iota
	// H2GoAway answers the request with a GOAWAY carrying Code whose last stream is the one
	// before it (so the request was not processed), then closes the connection.
	H2GoAway
	// H2GoAwayGraceful sends a GOAWAY (NO_ERROR) whose last stream is the request's, answers
	// it after Hold, and keeps the connection open as long as the client does: a server
	// draining for a restart, on which the client may send nothing new.
	H2GoAwayGraceful
)

// H2 serves HTTP/2 with prior knowledge (h2c) on each connection it is given as Config.Serve:
// it answers every JSON-RPC request as Echo does, except every Every-th request of the
// server (counted over all its connections), which gets Fault.
type H2 struct {
	Fault H2Fault
	Code  http2.ErrCode
	Every int64         // 0 or 1: every request
	Hold  time.Duration // H2GoAwayGraceful: how long the answer waits after the GOAWAY
	n     atomic.Int64
}

// Faults is how many requests got the fault.
func (h *H2) Faults() int64 {
	every := max(h.Every, 1)
	return h.n.Load() / every
}

// h2stream is a request being read: its body so far.
type h2stream struct{ body []byte }

// Serve is a Config.Serve: it speaks HTTP/2 on c until the client or a fault closes it.
func (h *H2) Serve(c net.Conn, r *bufio.Reader) {
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(r, preface); err != nil || string(preface) != http2.ClientPreface {
		return
	}
	fr := http2.NewFramer(c, r)
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	var hbuf bytes.Buffer
	enc := hpack.NewEncoder(&hbuf)
	if fr.WriteSettings() != nil {
		return
	}
	streams := map[uint32]*h2stream{}
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		var done uint32
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() && fr.WriteSettingsAck() != nil {
				return
			}
		case *http2.PingFrame:
			if !f.IsAck() && fr.WritePing(true, f.Data) != nil {
				return
			}
		case *http2.MetaHeadersFrame:
			streams[f.StreamID] = &h2stream{}
			if f.StreamEnded() {
				done = f.StreamID
			}
		case *http2.DataFrame:
			st := streams[f.StreamID]
			if st == nil {
				continue
			}
			st.body = append(st.body, f.Data()...)
			// Give the flow-control window back, or a long run would stall the client.
			if n := uint32(len(f.Data())); n > 0 {
				if fr.WriteWindowUpdate(0, n) != nil || fr.WriteWindowUpdate(f.StreamID, n) != nil {
					return
				}
			}
			if f.StreamEnded() {
				done = f.StreamID
			}
		}
		if done == 0 {
			continue
		}
		st := streams[done]
		delete(streams, done)
		if !h.answer(fr, enc, &hbuf, done, st.body) {
			linger(c, r)
			return
		}
	}
}

// answer answers stream id's request body, or faults; false ends the connection.
func (h *H2) answer(fr *http2.Framer, enc *hpack.Encoder, hbuf *bytes.Buffer, id uint32, body []byte) bool {
	if n := h.n.Add(1); n%max(h.Every, 1) == 0 {
		switch h.Fault {
		case H2RST:
			return fr.WriteRSTStream(id, h.Code) == nil
		case H2GoAway:
			_ = fr.WriteGoAway(id-2, h.Code, nil) // client streams are odd: id-2 is the one before
			return false
		case H2GoAwayGraceful:
			if fr.WriteGoAway(id, http2.ErrCodeNo, nil) != nil {
				return false
			}
			time.Sleep(h.Hold) // the connection is still the client's, draining
		}
	}
	out := (&Server{cfg: Config{Mode: Echo}}).rpcAnswer(body)
	hbuf.Reset()
	_ = enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
	_ = enc.WriteField(hpack.HeaderField{Name: "content-type", Value: "application/json"})
	_ = enc.WriteField(hpack.HeaderField{Name: "content-length", Value: strconv.Itoa(len(out))})
	if fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: hbuf.Bytes(), EndHeaders: true}) != nil {
		return false
	}
	return fr.WriteData(id, true, out) == nil
}

// linger closes c's writing side and reads what the client still sends until it closes too
// (or a second passes): closing at once, with bytes unread, would reset the connection, and
// the client would see a reset instead of the GOAWAY.
func linger(c net.Conn, r *bufio.Reader) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	_, _ = io.Copy(io.Discard, r)
}
