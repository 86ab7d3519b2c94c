package main

import "runtime/debug"

// buildVersion is stamped by the Makefile (-ldflags "-X main.buildVersion=…"); a linker-set
// string is the one package-level variable we allow.
var buildVersion string

// version is the stamped version, else what the Go toolchain recorded (module version or VCS
// revision), so `go run` and `go install` builds report one too.
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}
