// Package hostile is a misbehaving HTTP JSON-RPC target for rpcstress's tests: slow, trickling,
// never reading, closing early, answering with wrong ids, escape sequences, huge or lying
// lengths, gzip, an early 413. It speaks raw TCP (not net/http's server) so it can break the
// protocol in the ways real servers and proxies do. It shares no code with the tester it checks.
package hostile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Mode is one way of misbehaving.
type Mode int

// The modes. Each answers every request of a connection the same way.
const (
	// Echo answers each JSON-RPC call with {"jsonrpc":"2.0","id":ID,"result":"0x1"}, batches
	// item by item: the well-behaved baseline.
	Echo Mode = iota
	// NeverRead accepts connections and never reads or answers (holds them until Close).
	NeverRead
	// Silent reads requests and never answers.
	Silent
	// Slow answers like Echo after Delay.
	Slow
	// Trickle writes Echo's answer one byte every Delay.
	Trickle
	// CloseEarly closes each connection as soon as it is accepted.
	CloseEarly
	// CloseAfterHeaders sends the headers of a 200 with Content-Length 100 and closes.
	CloseAfterHeaders
	// Early413 answers 413 (Body, or a short text) and closes without reading a request body
	// longer than Limit bytes, as geth does; shorter requests get Echo.
	Early413
	// WrongIDs answers every call with its id + 1000 (an unknown id).
	WrongIDs
	// DropBatchItem answers a batch without its last item (a single call like Echo).
	DropBatchItem
	// ExtraBatchItem answers a batch with one more item, id 999999 (a single call like Echo).
	ExtraBatchItem
	// NoID answers every call without an id member.
	NoID
	// ForeignID answers a single call with id 424242 (another request's id).
	ForeignID
	// Escapes answers every call with a JSON-RPC error (code -32000) whose message carries
	// terminal escape sequences, BEL, NUL and U+202E: EscapeMessage.
	Escapes
	// NotJSONRPC answers 200 {"foo":1}.
	NotJSONRPC
	// Huge answers 200 with a JSON-RPC result string making a body of about Size bytes.
	Huge
	// LyingLength answers 200 with a Content-Length Size bytes above the body it sends, then
	// keeps the connection open without sending more.
	LyingLength
	// Gzip answers like Echo with Content-Encoding: gzip.
	Gzip
	// Status answers Status with Body (default text/plain "no").
	Status
)

// EscapeMessage is the message Escapes puts in its errors: an OSC title change, a screen clear,
// BEL, NUL and a right-to-left override.
const EscapeMessage = "bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil"

// Config chooses the mode and its knobs.
type Config struct {
	Mode   Mode
	Delay  time.Duration // Slow, Trickle: the wait (default 100 ms / 10 ms)
	Limit  int           // Early413: the largest body read (default 1 MiB)
	Size   int           // Huge, LyingLength: bytes (default 1 MiB / 100)
	Status int           // Status: the status code (default 500)
	Body   []byte        // Status, Early413: the body sent
	// Serve, when set, handles each connection instead of Mode (a fault of the test's own
	// making); the connection is closed when it returns, or by Close.
	Serve func(c net.Conn, r *bufio.Reader)
}

// Server is a running hostile target on 127.0.0.1.
type Server struct {
	URL  string // http://127.0.0.1:PORT/
	Addr string // 127.0.0.1:PORT

	cfg      Config
	ln       net.Listener
	conns    atomic.Int64
	requests atomic.Int64
	mu       sync.Mutex
	open     map[net.Conn]struct{}
	wg       sync.WaitGroup
	done     chan struct{}
}

// Start listens on a free loopback port and serves until tb's cleanup.
func Start(tb testing.TB, cfg Config) *Server {
	tb.Helper()
	s, err := Listen(cfg)
	if err != nil {
		tb.Fatalf("hostile: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Listen starts a Server without a testing.TB; Close it.
func Listen(cfg Config) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &Server{cfg: withDefaults(cfg), ln: ln, open: map[net.Conn]struct{}{}, done: make(chan struct{})}
	s.Addr = ln.Addr().String()
	s.URL = "http://" + s.Addr + "/"
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

func withDefaults(c Config) Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if c.Delay <= 0 {
		c.Delay = 100 * time.Millisecond
		if c.Mode == Trickle {
			c.Delay = 10 * time.Millisecond
		}
	}
	def(&c.Limit, 1<<20)
	def(&c.Status, 500)
	if c.Mode == LyingLength {
		def(&c.Size, 100)
	}
	def(&c.Size, 1<<20)
	if c.Body == nil {
		c.Body = []byte("no")
	}
	return c
}

// Conns is how many connections were accepted.
func (s *Server) Conns() int64 { return s.conns.Load() }

// Requests is how many request heads were read.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Close stops listening, closes every open connection and waits for the handlers.
func (s *Server) Close() {
	select {
	case <-s.done:
		return
	default:
	}
	close(s.done)
	_ = s.ln.Close()
	s.mu.Lock()
	for c := range s.open {
		_ = c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.conns.Add(1)
		s.mu.Lock()
		s.open[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.open, c)
				s.mu.Unlock()
				_ = c.Close()
			}()
			s.serve(c)
		}()
	}
}

// serve handles one connection until the peer or the mode closes it.
func (s *Server) serve(c net.Conn) {
	if s.cfg.Serve != nil {
		s.cfg.Serve(c, bufio.NewReader(c))
		return
	}
	switch s.cfg.Mode {
	case CloseEarly:
		return
	case NeverRead:
		<-s.done
		return
	}
	r := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		s.requests.Add(1)
		if s.cfg.Mode == Early413 && req.ContentLength > int64(s.cfg.Limit) {
			// Answer before reading the body, then close: the client is still writing.
			_ = writeResponse(c, 413, "text/plain", s.cfg.Body, nil)
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			time.Sleep(50 * time.Millisecond) // let the answer leave before the reset
			return
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return
		}
		if !s.answer(c, body) {
			return
		}
	}
}

// answer writes the mode's answer to one request; false closes the connection.
func (s *Server) answer(c net.Conn, body []byte) bool {
	switch s.cfg.Mode {
	case Silent:
		<-s.done
		return false
	case Slow:
		select {
		case <-time.After(s.cfg.Delay):
		case <-s.done:
			return false
		}
	case CloseAfterHeaders:
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
		return false
	case Status:
		return writeResponse(c, s.cfg.Status, "text/plain", s.cfg.Body, nil) == nil
	case NotJSONRPC:
		return writeResponse(c, 200, "application/json", []byte(`{"foo":1}`), nil) == nil
	case Huge:
		pad := bytes.Repeat([]byte("a"), s.cfg.Size)
		out := append(append([]byte(`{"jsonrpc":"2.0","id":1,"result":"`), pad...), `"}`...)
		return writeResponse(c, 200, "application/json", out, nil) == nil
	case LyingLength:
		out := []byte(`{"jsonrpc":"2.0","id":1,"result":"0x1"}`)
		head := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(out)+s.cfg.Size)
		_, _ = c.Write(append([]byte(head), out...))
		<-s.done
		return false
	}
	out := s.rpcAnswer(body)
	switch s.cfg.Mode {
	case Trickle:
		resp := responseBytes(200, "application/json", out, nil)
		for _, b := range resp {
			if _, err := c.Write([]byte{b}); err != nil {
				return false
			}
			select {
			case <-time.After(s.cfg.Delay):
			case <-s.done:
				return false
			}
		}
		return true
	case Gzip:
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		_, _ = zw.Write(out)
		_ = zw.Close()
		return writeResponse(c, 200, "application/json", z.Bytes(), map[string]string{"Content-Encoding": "gzip"}) == nil
	}
	return writeResponse(c, 200, "application/json", out, nil) == nil
}

// call is the part of a JSON-RPC call the answers need.
type call struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// rpcAnswer builds the mode's JSON-RPC answer to body (a call or a batch).
func (s *Server) rpcAnswer(body []byte) []byte {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var calls []call
		if err := json.Unmarshal(trimmed, &calls); err != nil {
			return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
		}
		items := make([]json.RawMessage, 0, len(calls)+1)
		for _, c := range calls {
			items = append(items, s.item(c))
		}
		switch s.cfg.Mode {
		case DropBatchItem:
			if len(items) > 0 {
				items = items[:len(items)-1]
			}
		case ExtraBatchItem:
			items = append(items, json.RawMessage(`{"jsonrpc":"2.0","id":999999,"result":"0x1"}`))
		}
		out, _ := json.Marshal(items)
		return out
	}
	var c call
	if err := json.Unmarshal(trimmed, &c); err != nil {
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
	}
	if s.cfg.Mode == ForeignID {
		c.ID = json.RawMessage("424242")
	}
	return s.item(c)
}

// item answers one call according to the mode.
func (s *Server) item(c call) json.RawMessage {
	id := c.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	switch s.cfg.Mode {
	case WrongIDs:
		if n, err := strconv.ParseInt(string(id), 10, 64); err == nil {
			id = json.RawMessage(strconv.FormatInt(n+1000, 10))
		} else {
			id = json.RawMessage(`"wrong"`)
		}
	case NoID:
		return json.RawMessage(`{"jsonrpc":"2.0","result":"0x1"}`)
	case Escapes:
		msg, _ := json.Marshal(EscapeMessage)
		return json.RawMessage(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32000,"message":` + string(msg) + `}}`)
	}
	return json.RawMessage(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":"0x1"}`)
}

func responseBytes(status int, ctype string, body []byte, extra map[string]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n", status, http.StatusText(status), ctype, len(body))
	for k, v := range extra {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

func writeResponse(c net.Conn, status int, ctype string, body []byte, extra map[string]string) error {
	_, err := c.Write(responseBytes(status, ctype, body, extra))
	return err
}
