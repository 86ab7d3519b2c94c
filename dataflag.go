package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"

	"github.com/rpcstress/rpcstress/profiles"
)

// dataFlag adds --data to a verb that loads a profile: the folder its {{line}} files are read
// from, over the profile's data_dir (see profiles.DataDir).
func dataFlag(fs *flag.FlagSet, dir *string) {
	fs.StringVar(dir, "data", "", "read the profile's {{line}} files from this `folder` (what "+
		"rpcstress harvest --out wrote) instead of its data_dir")
}

// dataOptions checks --data and makes it a load option. The folder is checked here, not by
// the loader, so that a mistyped flag is said as a flag, not at a line of the profile.
func dataOptions(dir string) ([]profiles.Option, error) {
	if dir == "" {
		return nil, nil
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("--data %s: no such folder: give the folder `rpcstress harvest` wrote (its --out, harvest by default)", dir)
	case err != nil:
		return nil, fmt.Errorf("--data %s: %w", dir, err)
	case !info.IsDir():
		return nil, fmt.Errorf("--data %s is a file, not a folder: give the folder `rpcstress harvest` wrote (its --out)", dir)
	}
	return []profiles.Option{profiles.DataDir(dir)}, nil
}
