package engine

// How a Client checks a TLS target, whatever the protocol over it: the system's roots plus
// Config.TLS.CAFile, verification off only when the profile says insecure, and the URL's host
// as the name the certificate must carry.

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// newTLSConfig is how https targets are checked: the system's roots plus Config.TLS.CAFile.
func newTLSConfig(t TLSConfig) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.CAFile == "" {
		return cfg, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool() // no system roots (a scratch container): the CA file alone
	}
	pem, err := os.ReadFile(t.CAFile)
	if err != nil {
		return nil, fmt.Errorf("CA file %s: %w", t.CAFile, err)
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("CA file %s holds no PEM certificate", t.CAFile)
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// clientTLS is the configuration a Client's connections to host handshake with: a copy of base
// (newTLSConfig's for t when base is nil; tests give their own), with the profile's insecure
// flag, host as the server name unless base names one, and protos offered over ALPN (the
// protocols the transport speaks).
func clientTLS(base *tls.Config, t TLSConfig, host string, protos ...string) (*tls.Config, error) {
	if base == nil {
		var err error
		if base, err = newTLSConfig(t); err != nil {
			return nil, err
		}
	}
	cfg := base.Clone()
	if t.Insecure {
		cfg.InsecureSkipVerify = true // the profile said so, and Describe says it loudly
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	cfg.NextProtos = protos
	return cfg, nil
}
