package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/rpcstress/rpcstress/internal/promexport"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/profiles"
)

// startMetrics serves the run's live numbers to Prometheus at addr (--metrics-listen), bound
// before the run (and before --start-at waits), so a bad address is told before anything is
// sent. nil when addr is empty.
func (c *cli) startMetrics(addr string, p *profiles.Profile) (*promexport.Server, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := promexport.Listen(addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-listen %w", err)
	}
	shard := "1/1"
	if p.Config.ShardCount > 1 {
		shard = strconv.Itoa(p.Config.Shard) + "/" + strconv.Itoa(p.Config.ShardCount)
	}
	s, err := promexport.Serve(ln, p.Name, shard, promexport.Options{
		Target: p.Config.DisplayURL, Mode: string(p.Config.Mode), Version: version()})
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	return s, nil
}

// stopMetrics waits, after the run, for Prometheus to scrape its final numbers (at most about
// one scrape interval, and only if it was scraping: see promexport's linger), then stops
// serving. A signal meanwhile leaves at once.
func (c *cli) stopMetrics(ctx context.Context, s *promexport.Server) {
	defer s.Close()
	wait := s.LingerFor(time.Now())
	if wait <= 0 {
		return
	}
	fmt.Fprintf(c.stderr, "rpcstress: waiting up to %s for Prometheus to scrape the final numbers on %s (ctrl+c: leave now)\n",
		wait.Round(100*time.Millisecond), safetext.Line(s.Addr().String()))
	leave, stop := make(chan struct{}), make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-c.signals:
			close(leave)
		case <-stop:
		}
	}()
	if !s.Linger(ctx, leave) {
		fmt.Fprintln(c.stderr, "rpcstress: no scrape of the final numbers came; Prometheus has the numbers up to its last scrape")
	}
}
