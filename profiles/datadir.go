package profiles

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rpcstress/rpcstress/harvest"
)

// Option changes how a profile loads, beyond its file and the environment.
type Option func(*source)

// DataDir reads the files of {{line}} and {{lineSeq}} from dir instead of the profile's
// data_dir or its folder: the --data flag. A relative dir starts at the working directory.
func DataDir(dir string) Option { return func(s *source) { s.dataDir = dir } }

// dataFolder is where {{line}} and {{lineSeq}} read their files when a profile names a folder
// of data made outside it: data_dir = "harvest", or --data. Its relative path starts at the
// working directory, not at the profile's folder, because that is where `rpcstress harvest`
// writes (--out harvest by default) and where a user runs the bundled profiles from:
// `rpcstress harvest URL --chain evm` then `rpcstress profiles/evm-mix.toml` just works.
type dataFolder struct {
	dir     string // as written or given
	flag    bool   // given by --data, not by data_dir
	chain   string // what `rpcstress harvest --chain` makes this data: "evm", "solana" or ""
	missing bool   // the folder does not exist: said once, at data_dir, not once per file
	read    func(name string) ([]byte, error)
	// absent are the lines files the profile reads that the folder lacks, in the order first
	// asked for: said in one problem at data_dir (see reportAbsent), as a folder from another
	// chain or an older harvest lacks several.
	absent []string
}

// dataFolder reads data_dir and applies --data over it; nil when neither names a folder, and
// the lines files are then relative to the profile as before. A folder that does not exist is
// one problem at data_dir (every call into it would otherwise say the same).
func (c *checker) dataFolder(doc table, src *source) *dataFolder {
	d := &dataFolder{chain: chainOf(doc)}
	if s, ok := c.str(doc, "", "data_dir", `data_dir = "harvest"`); ok {
		d.dir = s
		if strings.TrimSpace(s) == "" {
			c.addf("data_dir", `is empty: name the folder of the line files, e.g. data_dir = "harvest", or drop the key to read them next to the profile`)
			return nil
		}
	}
	if src.dataDir != "" {
		d.dir, d.flag = src.dataDir, true
	}
	if d.dir == "" {
		return nil
	}
	d.read = wholeReader(diskOpener(d.dir))
	info, err := os.Stat(d.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.missing = true
		c.addErr("data_dir", err, "%s: no such folder%s: %s", d.named(), d.lookedIn(), d.harvestFix())
	case err != nil:
		d.missing = true
		c.addErr("data_dir", err, "%s: cannot be read (%v)", d.named(), errors.Unwrap(err))
	case !info.IsDir():
		d.missing = true
		c.addf("data_dir", "%s is a file, not a folder: name the folder `rpcstress harvest` wrote (its --out)", d.named())
	}
	return d
}

// lack notes a lines file the folder does not have.
func (d *dataFolder) lack(name string) {
	if !slices.Contains(d.absent, name) {
		d.absent = append(d.absent, name)
	}
}

// reportAbsent says, once, which lines files the data folder lacks.
func (c *checker) reportAbsent(d *dataFolder) {
	if d == nil || len(d.absent) == 0 {
		return
	}
	if held := d.heldChain(); held != "" && d.chain != "" && held != d.chain {
		// One folder, two chains: harvesting the other chain into it would replace this one.
		c.addf("data_dir", "%s has no %s: it holds a %s harvest (its manifest.json), and the profile's chain is %s: "+
			"run `rpcstress harvest URL --chain %s --out %s-harvest` and give --data %s-harvest",
			d.named(), strings.Join(d.absent, ", "), held, d.chain, d.chain, d.chain, d.chain)
		return
	}
	c.addf("data_dir", "%s has no %s: %s", d.named(), strings.Join(d.absent, ", "), d.harvestFix())
}

// heldChain is the chain the folder's harvest manifest says its files are of ("" when it has
// none, or one that cannot be read: the lines files' absence is said all the same).
func (d *dataFolder) heldChain() string {
	b, err := d.read(harvest.ManifestName)
	if err != nil {
		return ""
	}
	m, err := harvest.DecodeManifest(b)
	if err != nil {
		return ""
	}
	return m.Chain
}

// named says which folder, and who named it.
func (d *dataFolder) named() string {
	if d.flag {
		return fmt.Sprintf("--data %q", d.dir)
	}
	return fmt.Sprintf("%q", d.dir)
}

// lookedIn says where a relative folder was looked for: people run rpcstress from many places.
func (d *dataFolder) lookedIn() string {
	if filepath.IsAbs(d.dir) {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return " (relative to the working directory)"
	}
	return " (looked in the working directory " + wd + ")"
}

// harvestFix says how to make the data: the command that writes it, for the profile's chain.
func (d *dataFolder) harvestFix() string {
	chain := d.chain
	if chain == "" {
		chain = "evm|solana"
	}
	out := ""
	if d.dir != "harvest" {
		out = " --out " + d.dir
	}
	return fmt.Sprintf("run `rpcstress harvest URL --chain %s%s` first, or point --data at the folder it wrote", chain, out)
}

// chainOf is the chain the profile says it talks to (the chain key), for the hint that makes
// its data; "" when it says none.
func chainOf(doc table) string {
	if s, ok := doc["chain"].(string); ok && (s == "evm" || s == "solana") {
		return s
	}
	return ""
}
