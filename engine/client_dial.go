package engine

// Dial accounting, shared by every transport: a connection is opened (TCP, then the TLS
// handshake for a TLS target) within the request's remaining time, and each one made is timed
// into Counters.RecordDial, so connection setup is counted apart from latency whatever the
// protocol over it.

import (
	"context"
	"crypto/tls"
	"net"
	"time"
)

// dialFunc opens one transport connection to addr within timeout.
type dialFunc func(addr string, timeout time.Duration) (net.Conn, error)

// dialer opens a Client's connections and counts them.
type dialer struct {
	timeout  time.Duration // Config.Timeout: no dial waits longer
	dial     dialFunc      // nil dials TCP; tests swap in an in-memory one
	tls      *tls.Config   // nil for a cleartext target
	counters *Counters     // nil counts nothing
}

// dialConn is a transport's dial: TCP (and TLS, for a TLS target) within the request's
// remaining time or Config.Timeout, whichever is shorter, timed for Counters.RecordDial. The
// handshake is done here, not left to the transport, so the dial time includes it and the
// handshake shares the deadline. Failed dials are not counted: Counters.Dials is the number of
// connections made.
func (d *dialer) dialConn(addr string, timeout time.Duration) (net.Conn, error) {
	return d.dialContext(context.Background(), addr, timeout)
}

// dialContext is dialConn that also gives up when ctx ends: a subscriber's dial must not hold
// the end of a run for a timeout.
func (d *dialer) dialContext(ctx context.Context, addr string, timeout time.Duration) (net.Conn, error) {
	if timeout <= 0 || (d.timeout > 0 && timeout > d.timeout) {
		timeout = d.timeout
	}
	t0 := time.Now()
	var conn net.Conn
	var err error
	if d.dial != nil {
		conn, err = d.dial(addr, timeout)
	} else {
		nd := net.Dialer{Timeout: timeout}
		if conn, err = nd.DialContext(ctx, "tcp", addr); err == nil {
			conn = RawTCP(conn) // reads and writes that leave the runtime's monitor asleep
		}
	}
	if err != nil {
		return nil, err
	}
	if d.tls != nil {
		var deadline time.Time
		if timeout > 0 {
			deadline = t0.Add(timeout)
		}
		if conn, err = handshake(ctx, conn, d.tls, deadline); err != nil {
			return nil, err
		}
	}
	if d.counters != nil {
		d.counters.RecordDial(int64(time.Since(t0)))
	}
	return conn, nil
}

// handshake runs the TLS client handshake on conn by deadline (zero: none) or until ctx ends,
// and returns the TLS connection, whose deadline is cleared again; on failure conn is closed.
func handshake(ctx context.Context, conn net.Conn, cfg *tls.Config, deadline time.Time) (net.Conn, error) {
	tc := tls.Client(conn, cfg)
	err := tc.SetDeadline(deadline)
	if err == nil {
		err = tc.HandshakeContext(ctx)
	}
	if err == nil {
		err = tc.SetDeadline(time.Time{})
	}
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return tc, nil
}
