package profiles

import (
	"crypto/x509"

	"github.com/rpcstress/rpcstress/engine"
)

// tls reads insecure and ca_file of the table t at path (the profile's top, a [[target]]):
// how https targets are checked, laid over base (a target's keys over the profile's); given
// says t had either key. Verification is on by default; ca_file adds a private CA to the
// system's roots. The CA file must exist and hold PEM certificates when the profile loads, so
// a wrong path fails before the run, not as a flood of tls errors.
func (c *checker) tls(t table, path string, src *source, base engine.TLSConfig) (tc engine.TLSConfig, given bool) {
	tc = base
	if b, ok := c.boolean(t, path, "insecure", "insecure = true"); ok {
		tc.Insecure, given = b, true
	}
	name, ok := c.str(t, path, "ca_file", `ca_file = "ca.pem"`)
	if !ok {
		return tc, given
	}
	field := joinPath(path, "ca_file")
	data, err := src.readBody(name)
	if err != nil {
		c.addErr(field, err, "%s", fileProblem(err, "put the CA certificate next to the profile (paths are relative to its folder) or fix the path"))
		return tc, true
	}
	if !x509.NewCertPool().AppendCertsFromPEM(data) {
		c.addf(field, "%q holds no PEM certificate: give the CA's certificate in PEM (-----BEGIN CERTIFICATE-----)", name)
		return tc, true
	}
	tc.CAFile = src.displayPath(name)
	return tc, true
}
