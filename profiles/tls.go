package profiles

import (
	"crypto/x509"

	"github.com/rpcstress/rpcstress/engine"
)

// tls reads insecure and ca_file: how https targets are checked. Verification is on by
// default; ca_file adds a private CA to the system's roots. The CA file must exist and hold
// PEM certificates when the profile loads, so a wrong path fails before the run, not as a
// flood of tls errors.
func (c *checker) tls(doc table, src *source) engine.TLSConfig {
	var t engine.TLSConfig
	if b, ok := c.boolean(doc, "", "insecure", "insecure = true"); ok {
		t.Insecure = b
	}
	name, ok := c.str(doc, "", "ca_file", `ca_file = "ca.pem"`)
	if !ok {
		return t
	}
	data, err := src.readBody(name)
	if err != nil {
		c.addErr("ca_file", err, "%s", fileProblem(err, "put the CA certificate next to the profile (paths are relative to its folder) or fix the path"))
		return t
	}
	if !x509.NewCertPool().AppendCertsFromPEM(data) {
		c.addf("ca_file", "%q holds no PEM certificate: give the CA's certificate in PEM (-----BEGIN CERTIFICATE-----)", name)
		return t
	}
	t.CAFile = src.displayPath(name)
	return t
}
