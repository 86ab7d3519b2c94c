package mocknode

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestH2C: with H2C the node answers HTTP/2 with prior knowledge and HTTP/1.1 on one port,
// the same answers, its limiter's 429 too, each counted once; a WebSocket upgrade is refused
// with a word (that endpoint needs fasthttp's server).
func TestH2C(t *testing.T) {
	n, addr := loopbackNode(t, Config{H2C: true, Rate: 1, Burst: 1, NoDelay: true})
	h2 := &http.Transport{Protocols: new(http.Protocols)}
	h2.Protocols.SetUnencryptedHTTP2(true) // prior knowledge, no HTTP/1.1 at all
	defer h2.CloseIdleConnections()
	h1 := &http.Transport{}
	defer h1.CloseIdleConnections()
	const call = `{"jsonrpc":"2.0","id":7,"method":"getSlot"}`
	tests := []struct {
		name   string
		tr     *http.Transport
		proto  int
		status int
	}{
		{"h2c", h2, 2, 200},                // within the burst
		{"http/1.1", h1, 1, 200},           // the burst's second
		{"h2c over the limit", h2, 2, 429}, // rejected by the limiter, over HTTP/2 too
	}
	for _, tt := range tests {
		resp, err := (&http.Client{Transport: tt.tr}).Post("http://"+addr+"/", "application/json", strings.NewReader(call))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.ProtoMajor != tt.proto || resp.StatusCode != tt.status {
			t.Errorf("%s: %s %d %s, want HTTP/%d %d", tt.name, resp.Proto, resp.StatusCode, body, tt.proto, tt.status)
		}
		if tt.status == 200 && (!strings.Contains(string(body), `"id":7`) || resp.Header.Get("Content-Type") != contentTypeJSON) {
			t.Errorf("%s: %q %v", tt.name, body, resp.Header)
		}
	}
	up, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	up.Header.Set("Connection", "Upgrade")
	up.Header.Set("Upgrade", "websocket")
	if resp, err := (&http.Client{Transport: h1}).Do(up); err != nil || resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("a WebSocket upgrade to --h2c: %v %v, want 501", resp, err)
	} else {
		resp.Body.Close()
	}
	if st := n.Stats(); st.Status["200"] != 2 || st.Status["429"] != 1 {
		t.Errorf("node counted %v, want two 200s and a 429", st.Status)
	}
}
