//go:build linux

package engine

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// rawPair is a rawConn dialed to a loopback listener, and the listener's end of it.
func rawPair(t *testing.T) (*rawConn, *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	r, ok := RawTCP(c).(*rawConn)
	if !ok {
		t.Fatalf("RawTCP(%T) is no rawConn", c)
	}
	t.Cleanup(func() { r.Close(); peer.Close() })
	return r, peer.(*net.TCPConn)
}

// TestRawConnMovesBytes: what is written arrives whole, both ways, including a write far larger
// than the socket's buffer, which must wait on the netpoller until the peer has read.
func TestRawConnMovesBytes(t *testing.T) {
	r, peer := rawPair(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	got := make(chan []byte, 1)
	go func() {
		time.Sleep(50 * time.Millisecond) // the write fills the socket and waits first
		b, _ := io.ReadAll(io.LimitReader(peer, int64(len(big))))
		got <- b
	}()
	if n, err := r.Write(big); n != len(big) || err != nil {
		t.Fatalf("Write: %d of %d, %v", n, len(big), err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("the peer read %d bytes, not the %d written", len(b), len(big))
	}
	if _, err := peer.Write([]byte("answer")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, err := io.ReadFull(r, buf[:6])
	if err != nil || string(buf[:n]) != "answer" {
		t.Fatalf("Read: %q, %v", buf[:n], err)
	}
}

// TestRawConnErrors: a rawConn fails as net.TCPConn does and is classified the same: its
// deadline is a timeout, a peer's close is EOF, a reset is a reset, and a closed connection
// says so.
func TestRawConnErrors(t *testing.T) {
	buf := make([]byte, 16)
	t.Run("deadline", func(t *testing.T) {
		r, _ := rawPair(t)
		_ = r.SetReadDeadline(time.Now().Add(30 * time.Millisecond))
		_, err := r.Read(buf)
		var ne net.Error
		if !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() || ClassifyError(err) != ErrTimeout {
			t.Errorf("Read past the deadline: %v (class %v)", err, ClassifyError(err))
		}
		var oe *net.OpError
		if !errors.As(err, &oe) || oe.Op != "read" || oe.Net != "tcp" {
			t.Errorf("not a read's OpError: %#v", err)
		}
	})
	t.Run("eof", func(t *testing.T) {
		r, peer := rawPair(t)
		peer.Close()
		if _, err := r.Read(buf); err != io.EOF || ClassifyError(err) != ErrEOF {
			t.Errorf("Read after the peer closed: %v", err)
		}
	})
	t.Run("reset", func(t *testing.T) {
		r, peer := rawPair(t)
		_ = peer.SetLinger(0) // close sends RST
		peer.Close()
		time.Sleep(20 * time.Millisecond)
		if _, err := r.Read(buf); ClassifyError(err) != ErrReset {
			t.Errorf("Read after a reset: %v (class %v)", err, ClassifyError(err))
		}
	})
	t.Run("closed", func(t *testing.T) {
		r, _ := rawPair(t)
		r.Close()
		if _, err := r.Read(buf); !errors.Is(err, net.ErrClosed) {
			t.Errorf("Read after Close: %v", err)
		}
		if _, err := r.Write(buf); !errors.Is(err, net.ErrClosed) {
			t.Errorf("Write after Close: %v", err)
		}
	})
}

// TestRawConnAllocs: a read and a write allocate nothing, as the send path must not.
func TestRawConnAllocs(t *testing.T) {
	r, peer := rawPair(t)
	msg, buf := []byte("ping"), make([]byte, 4)
	if a := testing.AllocsPerRun(100, func() {
		if _, err := r.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(peer, buf); err != nil {
			t.Fatal(err)
		}
		if _, err := peer.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(r, buf); err != nil {
			t.Fatal(err)
		}
	}); a > 0 {
		t.Errorf("%.1f allocations per exchange", a)
	}
}
