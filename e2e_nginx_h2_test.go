package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/proctest"
)

// TestNginxHTTP2: a real nginx (Debian's, built with http_v2) terminates TLS in front of the
// mock node. With "http2" on its listener, a run with http2 = true is answered in HTTP/2 on
// exactly `connections` connections, every request in nginx's access log as HTTP/2.0; without
// it, nginx agrees to no protocol over ALPN, and every request counts as tls with an event
// saying why.
func TestNginxHTTP2(t *testing.T) {
	for _, tt := range []struct {
		name   string
		listen string // nginx's listen parameters after the address
		h2     bool   // nginx speaks HTTP/2
	}{
		{"http2 on", "ssl http2", true},
		{"http2 off", "ssl", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := requireNginx(t)
			_, nodeURL := startNode(t, mocknode.Config{})
			prefix := t.TempDir()
			cert := writeSelfSigned(t, prefix)
			addr := proctest.FreeAddr(t)
			conf := fmt.Sprintf(`daemon off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events { worker_connections 256; }
http {
    log_format h2 '$server_protocol $status $connection';
    access_log %[1]s/access.log h2;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    server {
        listen %[2]s %[3]s;
        ssl_certificate %[4]s;
        ssl_certificate_key %[1]s/key.pem;
        location / {
            proxy_pass %[5]s;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
`, prefix, addr, tt.listen, cert, strings.TrimSuffix(nodeURL, "/"))
			ngx := launchNginx(t, bin, prefix, addr, conf)

			const conns, streams = 2, 4
			p := writeProfile(t, "https://"+addr+"/", conns, fmt.Sprintf("http2 = true\nstreams = %d\nca_file = %q\n%s%s",
				streams, cert, getBalance, stage("200/s", "2s")))
			r := runCLI(t, nil, p)
			mustRun(t, r, exitOK)
			tot := r.snap.Totals
			ngx.stop(t)
			lines := strings.Fields(ngx.readFile("access.log"))
			if !tt.h2 {
				said := strings.Contains(fmt.Sprint(r.snap.Events), "did not agree to HTTP/2")
				if tot.Errors["tls"] != tot.Completed || tot.Completed == 0 || len(lines) != 0 || !said {
					t.Errorf("errors %v of %d, nginx logged %d fields, events %v: want every request tls and an event",
						tot.Errors, tot.Completed, len(lines), r.snap.Events)
				}
				return
			}
			connIDs := map[string]bool{}
			logged := int64(0)
			for i := 0; i+2 < len(lines); i += 3 {
				logged++
				if lines[i] != "HTTP/2.0" || lines[i+1] != "200" {
					t.Errorf("nginx logged %q %q, want HTTP/2.0 200", lines[i], lines[i+1])
					break
				}
				connIDs[lines[i+2]] = true
			}
			if tot.Status["200"] != tot.Completed || tot.Completed != tot.Scheduled || logged != tot.Completed {
				t.Errorf("rpcstress: scheduled %d completed %d status %v errors %v; nginx logged %d", tot.Scheduled, tot.Completed, tot.Status, tot.Errors, logged)
			}
			if len(connIDs) != conns || tot.Connections.Dialed != conns {
				t.Errorf("nginx saw %d connections, rpcstress dialed %d; want %d", len(connIDs), tot.Connections.Dialed, conns)
			}
		})
	}
}

// writeSelfSigned writes a certificate for 127.0.0.1 (its own CA) and its key into dir as
// cert.pem and key.pem, and returns the certificate's path.
func writeSelfSigned(t *testing.T, dir string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "rpcstress test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPath := filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certPath
}
