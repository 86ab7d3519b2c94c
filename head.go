package main

import (
	"context"
	"errors"

	"github.com/rpcstress/rpcstress/engine"
)

// readHead reads the chain's head before the run, when the profile follows one (chain =
// "evm" | "solana"): {{head}} must never send a head that was not read, and a target that
// cannot say its head is told now, before a request is sent (exit 3: the run could not
// start). A signal meanwhile exits as one does while loading.
func (c *cli) readHead(ctx context.Context, cfg *engine.Config) (code int, ok bool) {
	if !cfg.Head.On() {
		return 0, true
	}
	_, err := whileWatching(c, "reading the chain's head: nothing was sent", func() (struct{}, error) {
		return struct{}{}, engine.PrimeHead(ctx, cfg)
	})
	var in *interrupted
	switch {
	case err == nil:
		return 0, true
	case errors.As(err, &in):
		return c.fail(exitSignalsBase+int(in.sig), err), false
	}
	return c.fail(exitRunFailed, err), false
}
