package engine

// Opening a WebSocket connection, for the request/response transport (ws.go) and the
// subscribers (subscribe_conn.go) alike: TCP and TLS through the counted dialer, so the dial
// time is the dialer's and stays apart from the upgrade and the calls, then the upgrade with
// gobwas/ws over that connection. A server that answers the upgrade with an HTTP status is a
// refusal, read for its status, body and rate-limit headers.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gobwas/ws"
)

// maxRefusalBody bounds what is kept of the body of a refused upgrade, for the classifier.
const maxRefusalBody = 4 << 10

// wsRefusal is an upgrade the server answered with an HTTP status instead of 101 (403, 429 …):
// the calls that needed the connection are answered with it, classified by their status.
type wsRefusal struct {
	status  int
	body    []byte
	headers [][2][]byte // its rate-limit headers
}

func (r *wsRefusal) Error() string {
	return fmt.Sprintf("the WebSocket upgrade was refused with HTTP %d", r.status)
}

// wsDialer opens WebSocket connections to one URL: TCP and TLS through the counted dialer
// (dial time stays apart), then the upgrade. The transport and the subscribers share it.
type wsDialer struct {
	addr   string
	u      *url.URL // for the handshake's request line and Host
	header ws.HandshakeHeaderHTTP
	d      *dialer
}

// newWSDialer makes the dialer of target t, sending headers with the upgrade (but their
// Content-Type: the upgrade is a GET without a body).
func newWSDialer(t target, headers []Header, d *dialer) (*wsDialer, error) {
	u, err := url.Parse(t.uri)
	if err != nil {
		return nil, err
	}
	h := http.Header{"User-Agent": {userAgent}}
	if t.auth != "" {
		h.Set("Authorization", t.auth)
	}
	for _, hd := range headers {
		if !strings.EqualFold(hd.Name, "Content-Type") {
			h[hd.Name] = append(h[hd.Name], hd.Value) // as the profile spells it
		}
	}
	return &wsDialer{addr: t.addr, u: u, header: ws.HandshakeHeaderHTTP(h), d: d}, nil
}

// open dials and upgrades by deadline, or until ctx ends. It returns the connection and what
// the server sent after its handshake (nil: nothing); an upgrade answered with an HTTP status
// instead of 101 is a *wsRefusal.
func (w *wsDialer) open(ctx context.Context, deadline time.Time) (net.Conn, *bufio.Reader, error) {
	conn, err := w.d.dialContext(ctx, w.addr, time.Until(deadline))
	if err != nil {
		return nil, nil, err
	}
	defer context.AfterFunc(ctx, func() { _ = conn.Close() })()
	_ = conn.SetDeadline(deadline)
	var refused *wsRefusal
	d := ws.Dialer{Header: w.header, OnStatusError: func(status int, _ []byte, resp io.Reader) {
		refused = readRefusal(status, resp)
	}}
	br, _, err := d.Upgrade(conn, w.u)
	switch {
	case refused != nil:
		_ = conn.Close()
		return nil, nil, refused
	case err != nil:
		_ = conn.Close()
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if isTimeout(err) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%w: %w", errWSHandshake, err)
	}
	_ = conn.SetDeadline(time.Time{})
	return conn, br, nil
}

// readRefusal reads the HTTP answer that refused an upgrade: its status, the start of its
// body and its rate-limit headers.
func readRefusal(status int, resp io.Reader) *wsRefusal {
	r := &wsRefusal{status: status}
	hr, err := http.ReadResponse(bufio.NewReader(resp), nil)
	if err != nil {
		return r
	}
	defer hr.Body.Close()
	r.body, _ = io.ReadAll(io.LimitReader(hr.Body, maxRefusalBody))
	for k, vs := range hr.Header {
		if isRateLimitHeader([]byte(k)) && len(vs) > 0 {
			r.headers = append(r.headers, [2][]byte{[]byte(k), []byte(vs[0])})
		}
	}
	return r
}
