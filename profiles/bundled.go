package profiles

import (
	"embed"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// bundled holds the profiles shipped with rpcstress; the only package-level variable, because
// go:embed needs one.
//
//go:embed *.toml
var bundled embed.FS

// BundledFS returns the bundled profiles (getBalance.toml, demo.toml, …) as a read-only file
// system.
func BundledFS() fs.FS { return bundled }

// BundledNames lists the bundled profiles' file names, sorted.
func BundledNames() []string {
	entries, _ := fs.ReadDir(bundled, ".")
	var names []string
	for _, e := range entries {
		if path.Ext(e.Name()) == ".toml" {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// LoadBundled loads a bundled profile by file name, e.g. LoadBundled("demo.toml", os.LookupEnv).
// A bundled profile's data_dir is on disk, relative to the working directory, like any other.
func LoadBundled(name string, getenv func(string) (string, bool), opts ...Option) (*Profile, error) {
	data, err := fs.ReadFile(bundled, name)
	if err != nil {
		return nil, &Error{File: name, Problems: []*Problem{{File: name,
			Msg: "no such bundled profile: choose one of " + strings.Join(BundledNames(), ", "), Err: err}}}
	}
	return load(&source{name: name, getenv: getenv, readBody: fsReader(bundled), open: fsOpener(bundled)}, data, opts...)
}
