package main

import "github.com/rpcstress/rpcstress/engine"

// insecureWarnings are the warnings a run prints before it starts when it accepts any
// certificate: the run's, or with several targets each target's that does (a target's own TLS
// settings replace the run's).
func insecureWarnings(cfg *engine.Config) []string {
	const off = "TLS verification OFF (insecure = true): any certificate is accepted"
	if len(cfg.Targets) == 0 {
		if cfg.TLS.Insecure {
			return []string{"warning: " + off}
		}
		return nil
	}
	var out []string
	for _, t := range cfg.Targets {
		tls := cfg.TLS
		if t.TLS != nil {
			tls = *t.TLS
		}
		if tls.Insecure {
			out = append(out, "warning: target "+t.Name+": "+off)
		}
	}
	return out
}
