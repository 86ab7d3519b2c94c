package engine

// The HTTP/1.1 round trip on one connection of the HostClient: fasthttp's own, but an answer
// the server sent before it read the whole request (an early 413) is read, not lost.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// earlyAnswerTransport is the Client's round trip: write the whole request, then read the
// answer, on a keep-alive connection of the HostClient, as fasthttp's own transport does, with
// one difference. A server may answer before it has read the request's body and close the
// connection: geth answers a body over its 5 MiB limit with 413 without reading it, proxies do
// the same with 400 or 413. The client, still writing, then sees its write fail (a reset, a
// broken pipe), and fasthttp's transport would report that, hiding the answer the server sent.
// Here a failed write is followed by an attempt to read the answer already on the connection;
// curl, Go's net/http and hey report the server's status the same way. Only when no answer can
// be read does the write's error stand.
//
// Everything else is what the Client configures fasthttp for and no more: no per-phase
// timeouts (the request's deadline bounds both phases), no streamed bodies, no connection age
// limit, no retries (the Client never retries).
//
// An early answer comes back as an *earlyAnswer error carrying the bytes of the request that
// were written: the rest never left, and BytesOut must not count it (the exchange reads it).
// The request is written through a counting writer of the transport's own pool, so knowing
// that count costs no allocation on the ordinary path.
type earlyAnswerTransport struct {
	writers sync.Pool // of *countingWriter
}

// earlyAnswer is RoundTrip's error for an answer read after the request's write failed: the
// answer stands (resp holds it), and written is how much of the request went out.
type earlyAnswer struct{ written int64 }

func (e *earlyAnswer) Error() string {
	return fmt.Sprintf("answered after %d bytes of the request were written", e.written)
}

// countingWriter is a write buffer to one connection that counts the bytes the connection
// took, so a write that fails half-way says how far it got.
type countingWriter struct {
	conn net.Conn
	n    int64
	bw   *bufio.Writer
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.conn.Write(p)
	w.n += int64(n)
	return n, err
}

// writeRequest writes req to conn and returns the bytes conn took and the write's error.
func (t *earlyAnswerTransport) writeRequest(hc *fasthttp.HostClient, conn net.Conn, req *fasthttp.Request) (int64, error) {
	w, _ := t.writers.Get().(*countingWriter)
	if w == nil {
		size := hc.WriteBufferSize
		if size <= 0 {
			size = 4096 // fasthttp's default
		}
		w = &countingWriter{}
		w.bw = bufio.NewWriterSize(w, size)
	}
	w.conn, w.n = conn, 0
	w.bw.Reset(w)
	err := req.Write(w.bw)
	if err == nil {
		err = w.bw.Flush()
	}
	n := w.n
	w.conn = nil // the pool must not keep the connection alive
	t.writers.Put(w)
	return n, err
}

// roundTrip sends req on a keep-alive connection of hc and reads its answer into resp by
// deadline; now is the clock read when the send began.
//
// It is called directly, not through HostClient.Do: Do and DoDeadline read the clock five
// times per request (the deadline from a timeout, a timeout from the deadline, twice, and the
// client's last use) to support retries and a client pool, neither of which the Client uses.
// What Do does besides is done here: the response is reset (and SkipBody set for HEAD only,
// where Do would carry a HEAD's SkipBody over to the next request on the same response), and
// io.EOF before the answer's first byte is fasthttp.ErrConnectionClosed. The flags Do sets on
// every request and response from the HostClient's configuration are set once, when they are
// made (see http1Transport.prime).
func (t *earlyAnswerTransport) roundTrip(hc *fasthttp.HostClient, req *fasthttp.Request, resp *fasthttp.Response, now, deadline time.Time) error {
	err := t.do(hc, req, resp, now, deadline)
	if err == io.EOF {
		return fasthttp.ErrConnectionClosed
	}
	return err
}

// do is roundTrip before io.EOF is renamed.
func (t *earlyAnswerTransport) do(hc *fasthttp.HostClient, req *fasthttp.Request, resp *fasthttp.Response, now, deadline time.Time) error {
	// The wait for a free connection, and a dial, are bounded by the time left.
	timeout := deadline.Sub(now)
	if timeout <= 0 {
		return fasthttp.ErrTimeout
	}
	resp.Reset()
	resp.SkipBody = req.Header.IsHead()
	cc, err := hc.AcquireConn(timeout, req.ConnectionClose())
	if err != nil {
		return err
	}
	conn := cc.Conn()
	// One deadline for both phases, set once: each setting reads the clock and moves a runtime
	// timer, and the read's deadline is the write's.
	if err := conn.SetDeadline(deadline); err != nil {
		hc.CloseConn(cc)
		return err
	}
	written, werr := t.writeRequest(hc, conn, req)
	if werr != nil && isTimeout(werr) {
		// Out of time: there is none left to read an answer in either.
		hc.CloseConn(cc)
		return fasthttp.ErrTimeout
	}
	// Let the other senders write first: an answer on loopback or a LAN takes tens of
	// microseconds, so a read right after the write finds nothing, fails with EAGAIN and parks
	// on the netpoller, one read and one epoll round more per request. After the others have
	// had their turn it is usually there (bench/README: reads per request 2.0 → 1.2, 7–10 %
	// less CPU at 20,000/s and more). Nothing is lost when it is not: the read then parks as it
	// would have, and the answer's time is taken when it is read either way. Waiting on the
	// netpoller instead, without that first read, is wrong: Go forgets a socket's readiness
	// before such a wait, and an answer already there is only seen at the deadline.
	runtime.Gosched()
	br := hc.AcquireReader(conn)
	rerr := resp.ReadLimitBody(br, hc.MaxResponseBodySize)
	hc.ReleaseReader(br)
	switch {
	case werr != nil && rerr != nil:
		// No answer came before the connection broke: the write's error is what happened.
		hc.CloseConn(cc)
		return werr
	case rerr != nil:
		hc.CloseConn(cc)
		return rerr
	case werr != nil:
		// An early answer leaves the rest of the request unsent: the connection is done for.
		hc.CloseConn(cc)
		return &earlyAnswer{written: written}
	case req.ConnectionClose() || resp.ConnectionClose():
		hc.CloseConn(cc)
	default:
		hc.ReleaseConn(cc)
	}
	return nil
}
