package profiles

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeCA writes a self-signed CA certificate in PEM to dir/name.
func writeCA(t *testing.T, dir, name string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"}, IsCA: true,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTLSKeys: ca_file is found next to the profile and must hold a PEM certificate;
// insecure = true is said out loud in Describe and recorded in the snapshot's profile.
func TestTLSKeys(t *testing.T) {
	dir := t.TempDir()
	writeCA(t, dir, "ca.pem")
	if err := os.WriteFile(filepath.Join(dir, "junk.pem"), []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	const rest = "url = \"https://node.test\"\n[[request]]\nmethod = \"getSlot\"\n[[stage]]\nrate = 1\n"
	p := mustLoadIn(t, "insecure = true\nca_file = \"ca.pem\"\n"+rest, dir, nil)
	if c := p.Config.TLS; !c.Insecure || c.CAFile != filepath.Join(dir, "ca.pem") {
		t.Errorf("tls %+v", c)
	}
	if out := described(p); !strings.Contains(out, "TLS verification OFF") || !strings.Contains(out, "ca.pem") {
		t.Errorf("Describe:\n%s", out)
	}
	js, _ := json.Marshal(p.Redacted())
	if !strings.Contains(string(js), `"tls":{"insecure":true,"ca_file":`) {
		t.Errorf("redacted %s", js)
	}
	plain := mustLoad(t, rest)
	if js, _ := json.Marshal(plain.Redacted()); strings.Contains(string(js), `"tls"`) || plain.Config.TLS.Insecure {
		t.Errorf("default profile: %s", js)
	}
	tests := []struct{ src, want string }{
		{"ca_file = \"none.pem\"\n", `t.toml:1: ca_file: "none.pem" not found`},
		{"ca_file = \"junk.pem\"\n", `t.toml:1: ca_file: "junk.pem" holds no PEM certificate`},
		{"insecure = \"yes\"\n", "t.toml:1: insecure: must be true or false"},
	}
	for _, tt := range tests {
		_, err := LoadBytes("t.toml", []byte(tt.src+rest), dir, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.src, err, tt.want)
		}
	}
}
