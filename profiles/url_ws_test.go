package profiles

import (
	"strings"
	"testing"
)

// TestWebSocketTargetURL: ws:// and wss:// are target URLs (JSON-RPC over WebSocket), shown
// without their secrets, and --url takes them too; a URL read over HTTP does not.
func TestWebSocketTargetURL(t *testing.T) {
	for _, u := range []string{"ws://127.0.0.1:8546", "wss://user:secret@node.example/ws/KEY?x=1"} {
		p := mustLoad(t, strings.Replace(threeStages, "http://127.0.0.1:8899", u, 1))
		if cfg := p.Config; cfg.URL != u || !cfg.UsesWebSocket() || strings.Contains(cfg.DisplayURL, "secret") {
			t.Errorf("%s: URL %q display %q", u, cfg.URL, cfg.DisplayURL)
		}
	}
	p := mustLoad(t, threeStages)
	if err := p.Apply(Overrides{URL: "wss://127.0.0.1:8546"}); err != nil {
		t.Errorf("--url wss://: %v", err)
	}
	if err := checkURL("ws://127.0.0.1:8546"); err == nil || !strings.Contains(err.Error(), "read over HTTP") {
		t.Errorf("an HTTP URL given as ws://: %v", err)
	}
}
