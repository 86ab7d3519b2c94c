package promexport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Path is where the metrics are served.
const Path = "/metrics"

// Listen binds addr (host:port, as --metrics-listen gives it) before the run, so a mistake is
// told before anything is sent. Only the address given is bound: ":9464" is every interface,
// as the user asked (a pod's), "127.0.0.1:9464" this machine alone.
func Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%q is not host:port: write e.g. 127.0.0.1:9464 (this machine only) or :9464 (every interface)", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return nil, fmt.Errorf("%q: the port %q is not a number from 0 to 65535: write e.g. %s", addr, port, net.JoinHostPort(host, "9464"))
	}
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("%s is in use by another program: choose another port", addr)
	case errors.Is(err, syscall.EACCES):
		return nil, fmt.Errorf("%s: may not listen there (ports below 1024 need root): choose a port above 1023, e.g. 9464", addr)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return nil, fmt.Errorf("%s: no interface of this machine has the address %s: use one of its addresses, 127.0.0.1, or an empty host for all", addr, host)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return ln, nil
}

// Server serves a run's metrics on a listener until Close.
type Server struct {
	coll   *Collector
	srv    *http.Server
	ln     net.Listener
	served chan struct{}
	seen   chan struct{} // closed by Linger's watcher once a scrape read the final numbers
}

// Serve serves the metrics of a run on ln: the run's collector and the process's own (CPU,
// memory, Go runtime: the tester's health), every series labelled with the run's name and
// shard ("2/4"; "1/1" when not sharded). It returns at once; the source is set later
// (Collector.SetSource) when the run starts.
func Serve(ln net.Listener, run, shard string, o Options) (*Server, error) {
	coll := NewCollector(o)
	reg := prometheus.NewRegistry()
	labelled := prometheus.WrapRegistererWith(prometheus.Labels{"run": validUTF8(run), "shard": validUTF8(shard)}, reg)
	for _, c := range []prometheus.Collector{coll, collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector()} {
		if err := labelled.Register(c); err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
	}
	mux := http.NewServeMux()
	mux.Handle(Path, promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: 4, // a scrape is cheap, but a flood of them should not cost the tester
		Timeout:             10 * time.Second,
	}))
	s := &Server{coll: coll, ln: ln, served: make(chan struct{}), srv: &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		// A stray client's protocol errors must not be printed over the dashboard.
		ErrorLog: log.New(io.Discard, "", 0),
	}}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln) // ends with Close
	}()
	return s, nil
}

// Collector is the run's collector, to set its source when the run starts.
func (s *Server) Collector() *Collector { return s.coll }

// Addr is the address served.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// LingerFor is how long Linger would wait from now for a last scrape (0: no need).
func (s *Server) LingerFor(now time.Time) time.Duration {
	s.coll.mu.Lock()
	defer s.coll.mu.Unlock()
	until, ok := s.coll.scrapes.lingerUntil(now)
	if !ok {
		return 0
	}
	return until.Sub(now)
}

// Linger waits, after the run, until a scrape has read its final numbers, at most about one
// scrape interval (see lingerUntil); leave ends the wait early (a signal). It reports whether
// the last scrape came.
func (s *Server) Linger(ctx context.Context, leave <-chan struct{}) bool {
	wait := s.LingerFor(time.Now())
	if wait <= 0 {
		return s.sawDone()
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	for !s.sawDone() {
		select {
		case <-deadline.C:
			return false
		case <-leave:
			return false
		case <-ctx.Done():
			return false
		case <-poll.C:
		}
	}
	return true
}

func (s *Server) sawDone() bool {
	s.coll.mu.Lock()
	defer s.coll.mu.Unlock()
	return s.coll.scrapes.sawDone
}

// Close stops serving, letting a scrape under way finish for at most a second.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = s.srv.Close()
	}
	<-s.served
	return err
}
