package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMixNeedsHarvest: the bundled chain mixes read a harvest; without one, validate and the
// run stop before sending and say what to run, and --data names another folder.
func TestMixNeedsHarvest(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := userFolder(t)
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr; "" for none
	}{
		// No harvest in the folder: the profile's data_dir line and the command.
		{"validate, no harvest", []string{"validate", "profiles/evm-mix.toml"}, exitUsage,
			"profiles/evm-mix.toml:" + dataDirLine(t, "evm-mix.toml") + `: data_dir: "harvest": no such folder (looked in the working directory ` + dir + `): run ` +
				"`rpcstress harvest URL --chain evm"},
		// A run says the same, and sends nothing.
		{"run, no harvest", []string{"profiles/solana-mix.toml", "--rate", "10/s", "--duration", "1s", "--headless"}, exitUsage,
			"profiles/solana-mix.toml:" + dataDirLine(t, "solana-mix.toml") + `: data_dir: "harvest": no such folder`},
		// --data naming nothing is a mistake of the flag.
		{"--data missing", []string{"validate", "profiles/evm-mix.toml", "--data", "nope"}, exitUsage,
			"--data nope: no such folder: give the folder `rpcstress harvest` wrote"},
		// The same for a run and a search, before anything is sent.
		{"run --data missing", []string{"profiles/evm-mix.toml", "--data", "nope", "--rate", "10/s", "--duration", "1s", "--headless"}, exitUsage,
			"--data nope: no such folder"},
		{"find-limit --data missing", []string{"find-limit", "profiles/evm-mix.toml", "--data", "nope", "--headless"}, exitUsage,
			"--data nope: no such folder"},
		// --data naming a harvest: it loads.
		{"--data", []string{"validate", "profiles/solana-heavy.toml", "--data", mustAbs(t, "profiles/testdata/harvest")}, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := inFolder(t, bin, dir, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q\nwant exit %d and %q\n%s", code, stderr, tt.code, tt.want, stdout)
			}
		})
	}
}

// dataDirLine is the line of a bundled profile's data_dir key, where its problems are said.
func dataDirLine(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("profiles", name))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "data_dir") {
			return strconv.Itoa(i + 1)
		}
	}
	t.Fatalf("%s has no data_dir", name)
	return ""
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
