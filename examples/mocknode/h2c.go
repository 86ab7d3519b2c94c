package mocknode

// HTTP/2 in cleartext (--h2c): the same node behind net/http's server, which speaks h2c with
// prior knowledge (RFC 9113 §3.3) as well as HTTP/1.1 (golang.org/x/net/http2/h2c is
// deprecated for this). fasthttp has no HTTP/2 server, so each request is handed to the
// node's own fasthttp handler, and its answer copied back: one handler for both, so an h2c
// answer is byte for byte the HTTP/1.1 one, and counted the same.

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/valyala/fasthttp"
)

// h2cServer is the net/http server of --h2c, shaped as serve uses fasthttp's.
type h2cServer struct{ srv *http.Server }

// newH2CServer serves h2c and HTTP/1.1 with n's handler.
func (n *Node) newH2CServer() *h2cServer {
	srv := &http.Server{Handler: http.HandlerFunc(n.serveHTTP), Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	return &h2cServer{srv: srv}
}

// Serve serves ln until ShutdownWithContext; a shutdown is no error.
func (s *h2cServer) Serve(ln net.Listener) error {
	if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ShutdownWithContext stops the server, waiting for answers in flight until ctx ends.
func (s *h2cServer) ShutdownWithContext(ctx context.Context) error { return s.srv.Shutdown(ctx) }

// serveHTTP answers one net/http request with the node's fasthttp handler.
func (n *Node) serveHTTP(w http.ResponseWriter, r *http.Request) {
	ws := r.ProtoMajor == 1 && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBodySize+1))
	if err != nil {
		return // the client went away
	}
	if len(body) > maxRequestBodySize {
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	var req fasthttp.Request
	req.Header.SetMethod(r.Method)
	req.SetRequestURI(r.URL.RequestURI())
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.SetBodyRaw(body)
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, nil, nil)
	if ws {
		// The same WebSocket endpoint as over fasthttp: the handshake answered as there, then
		// the connection taken over from net/http.
		if n.acceptWS(&ctx) {
			n.hijackWS(w, &ctx.Response)
			return
		}
	} else {
		n.handle(&ctx)
	}
	for k, v := range ctx.Response.Header.All() {
		switch string(k) {
		case fasthttp.HeaderContentLength, fasthttp.HeaderConnection, fasthttp.HeaderDate, fasthttp.HeaderServer:
			// net/http writes its own, and HTTP/2 has no Connection.
		default:
			w.Header().Add(string(k), string(v))
		}
	}
	w.WriteHeader(ctx.Response.StatusCode())
	_, _ = w.Write(ctx.Response.Body())
}

// hijackWS takes the connection of an accepted WebSocket handshake over from net/http, writes
// the 101 answer resp holds (net/http writes no 101 of its own for a handler) and serves the
// WebSocket on it until it ends.
func (n *Node) hijackWS(w http.ResponseWriter, resp *fasthttp.Response) {
	c, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return // not HTTP/1.1 after all: nothing to answer on
	}
	defer c.Close()
	if _, err := resp.WriteTo(rw); err != nil || rw.Flush() != nil {
		return
	}
	conn := c
	if rw.Reader.Buffered() > 0 {
		// Frames the client sent right after its handshake, read ahead by net/http.
		conn = bufferedConn{c, rw.Reader}
	}
	n.serveWS(conn)
}

// bufferedConn is a hijacked connection whose first bytes net/http already read.
type bufferedConn struct {
	net.Conn
	r io.Reader
}

func (b bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }
