package hostile

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// post sends body with net/http (which un-gzips transparently) and returns status and body.
func post(t *testing.T, url, body string) (int, string, error) {
	t.Helper()
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// TestModes: each mode's answer as a standard client sees it.
func TestModes(t *testing.T) {
	single := `{"jsonrpc":"2.0","id":7,"method":"m"}`
	batch := `[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"}]`
	tests := []struct {
		name   string
		cfg    Config
		body   string
		status int
		want   string // the whole body, or "" when the request must fail
	}{
		// The baseline answers each call with its id.
		{"echo single", Config{Mode: Echo}, single, 200, `{"jsonrpc":"2.0","id":7,"result":"0x1"}`},
		{"echo batch", Config{Mode: Echo}, batch, 200, `[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":"0x1"}]`},
		// Id faults.
		{"wrong ids", Config{Mode: WrongIDs}, single, 200, `{"jsonrpc":"2.0","id":1007,"result":"0x1"}`},
		{"drop item", Config{Mode: DropBatchItem}, batch, 200, `[{"jsonrpc":"2.0","id":1,"result":"0x1"}]`},
		{"extra item", Config{Mode: ExtraBatchItem}, batch, 200, `[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":"0x1"},{"jsonrpc":"2.0","id":999999,"result":"0x1"}]`},
		{"no id", Config{Mode: NoID}, single, 200, `{"jsonrpc":"2.0","result":"0x1"}`},
		{"foreign id", Config{Mode: ForeignID}, single, 200, `{"jsonrpc":"2.0","id":424242,"result":"0x1"}`},
		// Content faults.
		{"escapes", Config{Mode: Escapes}, single, 200, "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32000,\"message\":\"bad\\u001b]0;pwned\\u0007\\u001b[2J\\u0000\u202eevil\"}}"},
		{"not json-rpc", Config{Mode: NotJSONRPC}, single, 200, `{"foo":1}`},
		{"gzip", Config{Mode: Gzip}, single, 200, `{"jsonrpc":"2.0","id":7,"result":"0x1"}`},
		{"status", Config{Mode: Status, Status: 503, Body: []byte("busy")}, single, 503, "busy"},
		{"slow", Config{Mode: Slow, Delay: 20 * time.Millisecond}, single, 200, `{"jsonrpc":"2.0","id":7,"result":"0x1"}`},
		{"trickle", Config{Mode: Trickle, Delay: time.Millisecond}, single, 200, `{"jsonrpc":"2.0","id":7,"result":"0x1"}`},
		// Connection faults: the request fails.
		{"close early", Config{Mode: CloseEarly}, single, 0, ""},
		{"close after headers", Config{Mode: CloseAfterHeaders}, single, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, tc.cfg)
			status, body, err := post(t, s.URL, tc.body)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("want a failed request, got %d %q", status, body)
				}
				return
			}
			if err != nil || status != tc.status || body != tc.want {
				t.Fatalf("got %d %q (err %v), want %d %q", status, body, err, tc.status, tc.want)
			}
		})
	}
}

// TestEarly413: the 413 is written before the body is read, and the connection closes.
func TestEarly413(t *testing.T) {
	s := Start(t, Config{Mode: Early413, Limit: 10, Body: []byte("too large")})
	c, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 413 {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
}

// TestNeverReadAndSilent: the request times out; Close ends the held connections.
func TestNeverReadAndSilent(t *testing.T) {
	for _, m := range []Mode{NeverRead, Silent, LyingLength} {
		s := Start(t, Config{Mode: m})
		c := &http.Client{Timeout: 200 * time.Millisecond}
		resp, err := c.Post(s.URL, "application/json", strings.NewReader(`{"id":1}`))
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if err == nil {
			t.Errorf("mode %d: want a timeout", m)
		}
		done := make(chan struct{})
		go func() { s.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("mode %d: Close hangs", m)
		}
	}
}

// TestHuge: the body is about Size bytes.
func TestHuge(t *testing.T) {
	s := Start(t, Config{Mode: Huge, Size: 100000})
	status, body, err := post(t, s.URL, `{"id":1}`)
	if err != nil || status != 200 || len(body) < 100000 {
		t.Fatalf("status %d, %d bytes, err %v", status, len(body), err)
	}
}
