package profiles

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// secretProfile uses every way a secret can enter a profile.
const secretProfile = `name = "secrets"
url = "https://alice:hunter2@node.example/v3/${INFURA_KEY}?apikey=QUERYSECRET#frag"
secret = ["X-Custom"]
[headers]
Authorization = "Bearer AUTHSECRET"
X-Api-Key = "APIKEYSECRET"
X-Custom = "CUSTOMSECRET"
X-From-Env = "${PLAIN_VAR}"
X-Visible = "shown"
[[request]]
method = "getSlot"
[[stage]]
rate = "1/s"
duration = "1s"
`

func TestRedaction(t *testing.T) {
	p := mustLoadIn(t, secretProfile, "", map[string]string{"INFURA_KEY": "PATHSECRET", "PLAIN_VAR": "ENVSECRET"})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p.Redacted()); err != nil {
		t.Fatal(err)
	}
	js := buf.String()
	checkHidden(t, []string{"hunter2", "alice", "QUERYSECRET", "apikey", "frag", "PATHSECRET", "AUTHSECRET", "APIKEYSECRET", "CUSTOMSECRET", "ENVSECRET"},
		map[string]string{"Redacted JSON": js, "Describe": described(p), "DisplayURL": p.Config.DisplayURL})
	for _, want := range []string{`"https://node.example/v3/${INFURA_KEY}"`, `"X-Visible","value":"shown"`, `"Authorization","value":"<redacted>","secret":true`} {
		if !strings.Contains(js, want) {
			t.Errorf("Redacted JSON lacks %s:\n%s", want, js)
		}
	}
	// The engine still gets the real values.
	if !strings.Contains(p.Config.URL, "PATHSECRET") || !strings.Contains(p.Config.URL, "QUERYSECRET") {
		t.Errorf("Config.URL lost its secrets: %q", p.Config.URL)
	}
	secretOf := map[string]bool{}
	for _, h := range p.Config.Headers {
		secretOf[h.Name] = h.Secret
	}
	want := map[string]bool{"Content-Type": false, "Authorization": true, "X-Api-Key": true, "X-Custom": true, "X-From-Env": true, "X-Visible": false}
	for name, s := range want {
		if secretOf[name] != s {
			t.Errorf("header %s secret = %v, want %v", name, secretOf[name], s)
		}
	}
}

func TestDisplayURL(t *testing.T) {
	tests := []struct{ in, want string }{
		// Userinfo, query and fragment go.
		{"https://u:p@h:8545/path?key=1#x", "https://h:8545/path"},
		// Nothing to remove.
		{"http://127.0.0.1:8899", "http://127.0.0.1:8899"},
		// Unparsable input is cut by hand, never echoed whole.
		{"http://u:p@[::1/x?key=1", "http://[::1/x"},
		// No scheme at all.
		{"u:p@host/x?k=1", "host/x"},
	}
	for _, tt := range tests {
		if got := DisplayURL(tt.in); got != tt.want {
			t.Errorf("DisplayURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDisplayURLWholeVar masks the path of a URL that came whole from the environment,
// where providers put their keys (…/v2/KEY).
func TestDisplayURLWholeVar(t *testing.T) {
	src := "url = \"${RPC_URL}\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = 1\n"
	p := mustLoadIn(t, src, "", map[string]string{"RPC_URL": "https://eth.example/v2/KEYKEY?x=1"})
	if d := p.Config.DisplayURL; strings.Contains(d, "KEYKEY") || !strings.HasPrefix(d, "https://eth.example/") {
		t.Errorf("DisplayURL = %q", d)
	}
}
