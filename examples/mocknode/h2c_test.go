package mocknode

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gobwas/ws/wsutil"
)

// TestH2C: with H2C the node answers HTTP/2 with prior knowledge and HTTP/1.1 on one port,
// the same answers, its limiter's 429 too, each counted once; and its WebSocket endpoint on
// the same port, taken over from net/http's server as from fasthttp's.
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
	// The WebSocket endpoint on the same port, as without H2C: its upgrade counted as a 101.
	c := wsDial(t, addr)
	if err := wsutil.WriteClientText(c, []byte(call)); err != nil {
		t.Fatal(err)
	}
	if m := wsDecode(t, wsRead(t, c)); string(m.ID) != "7" || m.Result == nil && m.Error == nil {
		t.Errorf("a call over WebSocket to --h2c: %+v", m)
	}
	if st := n.Stats(); st.Status["200"] != 2 || st.Status["429"] != 1 || st.Status["101"] != 1 || st.WS.Upgrades != 1 || st.WS.Messages != 1 {
		t.Errorf("node counted %v and %+v, want two 200s, a 429 and a WebSocket of one message", st.Status, st.WS)
	}
}
