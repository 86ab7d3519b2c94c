package engine

// The HTTP/1.1 round trip on one connection of the HostClient: fasthttp's own, but an answer
// the server sent before it read the whole request (an early 413) is read, not lost.

import (
	"errors"
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
// limit, no retries (the Client never retries, so retry is always false).
type earlyAnswerTransport struct{}

// RoundTrip implements fasthttp.RoundTripper.
func (earlyAnswerTransport) RoundTrip(hc *fasthttp.HostClient, req *fasthttp.Request, resp *fasthttp.Response) (retry bool, err error) {
	var deadline time.Time
	timeout := req.GetTimeOut()
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	cc, err := hc.AcquireConn(timeout, req.ConnectionClose())
	if err != nil {
		return false, err
	}
	conn := cc.Conn()
	if err := conn.SetWriteDeadline(deadline); err != nil {
		hc.CloseConn(cc)
		return false, err
	}
	bw := hc.AcquireWriter(conn)
	werr := req.Write(bw)
	if werr == nil {
		werr = bw.Flush()
	}
	hc.ReleaseWriter(bw)
	if werr != nil && isTimeout(werr) {
		// Out of time: there is none left to read an answer in either.
		hc.CloseConn(cc)
		return false, fasthttp.ErrTimeout
	}

	if err := conn.SetReadDeadline(deadline); err != nil {
		hc.CloseConn(cc)
		return false, errors.Join(werr, err)
	}
	if req.Header.IsHead() {
		resp.SkipBody = true
	}
	if hc.DisableHeaderNamesNormalizing {
		resp.Header.DisableNormalizing()
	}
	br := hc.AcquireReader(conn)
	rerr := resp.ReadLimitBody(br, hc.MaxResponseBodySize)
	hc.ReleaseReader(br)
	switch {
	case werr != nil && rerr != nil:
		// No answer came before the connection broke: the write's error is what happened.
		hc.CloseConn(cc)
		return false, werr
	case rerr != nil:
		hc.CloseConn(cc)
		return false, rerr
	case werr != nil || req.ConnectionClose() || resp.ConnectionClose():
		// An early answer leaves the rest of the request unsent: the connection is done for.
		hc.CloseConn(cc)
	default:
		hc.ReleaseConn(cc)
	}
	return false, nil
}
