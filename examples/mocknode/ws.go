package mocknode

import (
	"bufio"
	"bytes"
	"crypto/sha1" //nolint:gosec // RFC 6455 fixes SHA-1 for Sec-WebSocket-Accept; it protects nothing
	"encoding/base64"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"
	"github.com/valyala/fasthttp"
)

// The WebSocket endpoint: a GET with "Upgrade: websocket" on any path becomes a connection that
// carries the same JSON-RPC as POST, many calls in flight at once, answered in the order they
// finish (as geth does), plus the subscriptions (ws_subscribe.go). The handshake is answered
// through fasthttp, which then hands over the connection (Hijack); frames are read and written
// with gobwas/ws's header functions. The node shares no code with the tester.

const (
	// wsGUID is RFC 6455's constant of the Sec-WebSocket-Accept header.
	wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
	// wsWriteTimeout drops a client that stops reading instead of holding its answers (and
	// every goroutine answering it) forever.
	wsWriteTimeout = 10 * time.Second
	// wsDrainTime is how long a dropped connection is read and discarded after the node
	// half-closed it, so that the client reads every answer written before the drop instead
	// of a reset that can discard them.
	wsDrainTime = time.Second
	// Bodies of the handshakes the node refuses, not JSON-RPC errors: a client counts them
	// by their HTTP status.
	wsRefusedBody = `{"error":"WebSocket upgrades are refused here"}`
	wsBadBody     = `{"error":"bad WebSocket handshake: needs Sec-WebSocket-Key and Sec-WebSocket-Version 13"}`
)

// isUpgrade reports a request asking for a WebSocket.
func isUpgrade(ctx *fasthttp.RequestCtx) bool {
	return ctx.IsGet() && ctx.Request.Header.ConnectionUpgrade() &&
		bytes.EqualFold(ctx.Request.Header.Peek("Upgrade"), []byte("websocket"))
}

// upgradeWS answers a WebSocket handshake: refused (Config.WSRefuse), malformed (400), or 101
// and the connection goes to serveWS. The handshake is counted as an HTTP request.
func (n *Node) upgradeWS(ctx *fasthttp.RequestCtx) {
	if n.acceptWS(ctx) {
		ctx.Hijack(n.serveWS)
	}
}

// acceptWS answers a WebSocket handshake into ctx and counts it (see upgradeWS); true when it
// answered 101, and the connection is then the WebSocket's.
func (n *Node) acceptWS(ctx *fasthttp.RequestCtx) bool {
	if n.cfg.WSRefuse != 0 {
		n.counters.ws.refused.Add(1)
		n.finish(ctx, n.cfg.WSRefuse, wsRefusedBody, nil)
		return false
	}
	key := ctx.Request.Header.Peek("Sec-WebSocket-Key")
	if len(key) == 0 || string(ctx.Request.Header.Peek("Sec-WebSocket-Version")) != "13" {
		ctx.Response.Header.Set("Sec-WebSocket-Version", "13")
		n.finish(ctx, fasthttp.StatusBadRequest, wsBadBody, nil)
		return false
	}
	ctx.Response.Header.Set("Upgrade", "websocket")
	ctx.Response.Header.Set("Connection", "Upgrade")
	ctx.Response.Header.Set("Sec-WebSocket-Accept", wsAccept(key))
	ctx.SetStatusCode(fasthttp.StatusSwitchingProtocols)
	n.counters.commit(fasthttp.StatusSwitchingProtocols, nil)
	n.counters.ws.upgrades.Add(1)
	return true
}

// wsAccept is the Sec-WebSocket-Accept answering key (RFC 6455 §4.2.2).
func wsAccept(key []byte) string {
	h := sha1.New() //nolint:gosec // see the import
	h.Write(key)
	h.Write([]byte(wsGUID))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// wsConn is one WebSocket connection: a reader (serveWS's loop), one goroutine per message
// being answered, and one per subscription, all writing whole frames under wmu.
type wsConn struct {
	n    *Node
	c    net.Conn
	done chan struct{} // closed when the reader has stopped: subscriptions end

	wmu    sync.Mutex
	bw     *bufio.Writer
	closed bool // nothing more is written: dropped, closed by the client, or the node stops

	answering sync.WaitGroup
	dropping  atomic.Bool  // set by a drop: the reader discards what still arrives
	notes     atomic.Int64 // notifications written, for Config.SubDropAfter
	subs      subscriptions
}

// serveWS runs one connection until the client closes it, the node drops it, or the node
// stops. fasthttp closes c when it returns.
func (n *Node) serveWS(c net.Conn) {
	wc := &wsConn{n: n, c: c, done: make(chan struct{}), bw: bufio.NewWriter(c)}
	wc.subs.init()
	go func() {
		select {
		case <-n.closing:
			wc.shut(ws.StatusGoingAway)
		case <-wc.done:
		}
	}()
	wc.read()
	close(wc.done)
	wc.answering.Wait() // answers still sleeping find the connection closed and are not counted
	wc.shut(ws.StatusNormalClosure)
}

// read reads frames until the connection ends: data messages (fragments joined) are answered
// each in its own goroutine, pings get pongs, a close gets its echo.
func (wc *wsConn) read() {
	br := bufio.NewReader(wc.c)
	var msg []byte // the fragments of the message being received
	received := 0
	for {
		h, err := ws.ReadHeader(br)
		if err != nil {
			return
		}
		if h.Length < 0 || h.Length+int64(len(msg)) > maxRequestBodySize {
			wc.shut(ws.StatusMessageTooBig)
			return
		}
		p := make([]byte, h.Length) // a fresh buffer: the message goes to its own goroutine
		if _, err := io.ReadFull(br, p); err != nil {
			return
		}
		if h.Masked {
			ws.Cipher(p, h.Mask, 0)
		}
		switch {
		case h.OpCode == ws.OpPing:
			wc.write(ws.OpPong, p, nil)
			continue
		case h.OpCode == ws.OpPong:
			continue
		case h.OpCode == ws.OpClose:
			wc.closeEcho(p)
			return
		}
		msg = append(msg, p...)
		if !h.Fin {
			continue
		}
		received++
		if wc.dropping.Load() {
			wc.n.counters.ws.dropped.Add(1)
		} else if every := wc.n.cfg.WSDropEvery; every > 0 && received%every == 0 {
			wc.drop()
		} else {
			wc.answering.Add(1)
			go wc.answer(msg, wc.n.now())
		}
		msg = nil
	}
}

// drop ends the connection as a restarting proxy does, without a close frame: the message that
// triggered it and any after are never answered (counted dropped). Answers written before are
// kept: the write side is half-closed and what the client still sends is read and discarded
// for wsDrainTime, since closing with unread data would reset the connection and the client
// could lose answers it was sent.
func (wc *wsConn) drop() {
	wc.n.counters.ws.drops.Add(1)
	wc.n.counters.ws.dropped.Add(1)
	wc.dropping.Store(true)
	wc.wmu.Lock()
	wc.closed = true
	wc.wmu.Unlock()
	if cw, ok := rawConn(wc.c).(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		_ = wc.c.SetReadDeadline(time.Now().Add(wsDrainTime))
		return // the reader discards until the client closes or the deadline passes
	}
	_ = wc.c.Close()
}

// rawConn is the network connection under fasthttp's hijacked one.
func rawConn(c net.Conn) net.Conn {
	if u, ok := c.(interface{ UnsafeConn() net.Conn }); ok {
		return u.UnsafeConn()
	}
	return c
}

// write sends one whole frame; false when the connection is closed or the write failed (which
// closes it). count, when not nil, counts the frame just before it is written (count(1)), as
// the HTTP side counts an answer before handing it over, so a client that has read it finds
// it in /stats; a failed write takes the count back (count(-1)).
func (wc *wsConn) write(op ws.OpCode, p []byte, count func(sign int64)) bool {
	wc.wmu.Lock()
	defer wc.wmu.Unlock()
	if wc.closed {
		return false
	}
	if count != nil {
		count(1)
	}
	_ = wc.c.SetWriteDeadline(time.Now().Add(wsWriteTimeout))
	err := ws.WriteHeader(wc.bw, ws.Header{Fin: true, OpCode: op, Length: int64(len(p))})
	if err == nil {
		_, err = wc.bw.Write(p)
	}
	if err == nil {
		err = wc.bw.Flush()
	}
	if err != nil {
		if count != nil {
			count(-1)
		}
		wc.closed = true
		_ = wc.c.Close()
		return false
	}
	return true
}

// closeEcho answers the client's close frame with its status code (RFC 6455 §5.5.1).
func (wc *wsConn) closeEcho(p []byte) {
	if len(p) > 2 {
		p = p[:2]
	}
	wc.write(ws.OpClose, p, nil)
	wc.wmu.Lock()
	wc.closed = true
	wc.wmu.Unlock()
}

// shut sends a close frame with code (unless the connection is already closed) and closes it.
func (wc *wsConn) shut(code ws.StatusCode) {
	wc.write(ws.OpClose, ws.NewCloseFrameBody(code, ""), nil)
	wc.wmu.Lock()
	wc.closed = true
	wc.wmu.Unlock()
	_ = wc.c.Close()
}
