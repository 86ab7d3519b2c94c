package mocknode

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// Server settings. A load tester opens many connections and may idle between stages, so the
// node never times a connection out; concurrency is far above any test's connection count
// because handlers sleep through the modelled latency.
const (
	serverConcurrency  = 256 * 1024
	maxRequestBodySize = 16 << 20 // large batches and heavy bodies from files must fit
	shutdownGrace      = 5 * time.Second
)

// Node is a running (or ready to run) mock JSON-RPC node. Its methods are safe for concurrent
// use.
type Node struct {
	cfg      Config
	epoch    time.Time        // the node's time zero: chain heights and stall windows count from here
	now      func() time.Time // the clock; time.Now outside tests
	limiter  *Limiter         // nil when Config.Rate is 0
	latency  *latencyModel
	counters counters
	scratch  sync.Pool          // *scratch
	timers   sync.Pool          // *time.Timer
	methods  map[string]method  // every known method by name
	answers  [numMethods]answer // how each is answered (answerTable)
	subSeq   atomic.Uint64      // the last subscription id given out (ws_subscribe.go)
	liveSubs atomic.Int64       // subscriptions live or being answered, for Config.SubLimit
	// maxAnswer is maxAnswerBytes; a field so tests can reach it without building 64 MB.
	maxAnswer int
	// maxLogs is maxLogResults; a field so tests can reach it with a few blocks.
	maxLogs int

	closeOnce sync.Once
	closing   chan struct{} // closed by Close: Serve stops, sleeping handlers answer
	mu        sync.Mutex
	serving   bool
	served    chan struct{} // closed when Serve has returned
	serveErr  error
}

// New checks cfg and makes a node; it does not listen yet (see Serve and Start).
func New(cfg Config) (*Node, error) {
	cfg, err := cfg.normalized()
	if err != nil {
		return nil, err
	}
	epoch := time.Now()
	if cfg.WallClock {
		// The chain starts on a whole second (Add keeps the monotonic clock), so that with a
		// block time of whole seconds a block is made at the instant of its timestamp.
		epoch = epoch.Add(-time.Duration(epoch.UnixNano() % int64(time.Second)))
	}
	n := &Node{
		cfg:       cfg,
		epoch:     epoch,
		now:       time.Now,
		latency:   newLatencyModel(cfg, epoch),
		methods:   methodTable(),
		answers:   answerTable(),
		maxAnswer: maxAnswerBytes,
		maxLogs:   maxLogResults,
		closing:   make(chan struct{}),
		served:    make(chan struct{}),
	}
	if cfg.Rate > 0 {
		if n.limiter, err = NewLimiter(cfg.Rate, cfg.Burst, cfg.NoDelay, epoch); err != nil {
			return nil, fmt.Errorf("mocknode config: %w", err)
		}
	}
	return n, nil
}

// Config is the node's configuration, defaults filled in.
func (n *Node) Config() Config { return n.cfg }

// Serve answers on ln until ctx is cancelled or Close is called, then shuts the server down
// (waiting up to a few seconds for answers in flight) and returns nil. It returns an error if
// the listener fails or if the node is already serving. Serve closes ln.
func (n *Node) Serve(ctx context.Context, ln net.Listener) error {
	if err := n.claim(); err != nil {
		_ = ln.Close()
		return err
	}
	return n.run(ctx, ln)
}

// claim marks the node as serving, before any goroutine starts, so that a Close racing with
// Start still waits for the server to stop.
func (n *Node) claim() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.serving {
		return errors.New("mocknode: Serve called twice: a node serves one listener")
	}
	n.serving = true
	return nil
}

// run serves, records the outcome for Close and signals that serving is over.
func (n *Node) run(ctx context.Context, ln net.Listener) error {
	err := n.serve(ctx, ln)
	n.mu.Lock()
	n.serveErr = err
	n.mu.Unlock()
	close(n.served)
	return err
}

// server is what serve needs of an HTTP server: fasthttp's, or --h2c's.
type server interface {
	Serve(ln net.Listener) error
	ShutdownWithContext(ctx context.Context) error
}

func (n *Node) serve(ctx context.Context, ln net.Listener) error {
	var srv server = &fasthttp.Server{
		Handler:            n.handle,
		Name:               "rpcstress-mocknode",
		Concurrency:        serverConcurrency,
		MaxRequestBodySize: maxRequestBodySize,
		CloseOnShutdown:    true, // clients learn to reconnect elsewhere instead of hitting a dead socket
	}
	if n.cfg.H2C {
		srv = n.newH2CServer()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	select {
	case err := <-errc: // the listener failed before anyone asked us to stop
		n.stopHandlers()
		if err != nil {
			return fmt.Errorf("mocknode: serving on %s: %w", ln.Addr(), err)
		}
		return nil
	case <-ctx.Done():
	case <-n.closing:
	}
	n.stopHandlers() // wake sleeping handlers first, or shutdown would wait out their latency
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err := srv.ShutdownWithContext(sctx)
	// fasthttp's Shutdown does nothing if Serve has not registered the listener yet (a Close
	// right after Start); closing it ourselves makes Serve return in every case.
	_ = ln.Close()
	<-errc
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("mocknode: shutting down %s: %w", ln.Addr(), err)
	}
	return nil
}

// stopHandlers releases every handler sleeping through the latency model.
func (n *Node) stopHandlers() {
	n.closeOnce.Do(func() { close(n.closing) })
}

// Close stops the node and waits until Serve has returned; it returns Serve's error. Close
// on a node that never served, or twice, is fine.
func (n *Node) Close() error {
	n.stopHandlers()
	n.mu.Lock()
	serving := n.serving
	n.mu.Unlock()
	if !serving {
		return nil
	}
	<-n.served
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.serveErr
}

// Start makes a node and serves it on addr ("127.0.0.1:0" picks a free port) in a goroutine
// until ctx ends or Close is called. It returns the address actually listened on.
func Start(ctx context.Context, addr string, cfg Config) (*Node, string, error) {
	n, err := New(cfg)
	if err != nil {
		return nil, "", err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("mocknode: listening on %s: %w", addr, err)
	}
	if err := n.claim(); err != nil { // cannot happen on a new node; kept for honesty
		_ = ln.Close()
		return nil, "", err
	}
	go func() { _ = n.run(ctx, ln) }() // the error is kept for Close
	return n, ln.Addr().String(), nil
}

// Stats reads the node's counters.
func (n *Node) Stats() Stats { return n.counters.snapshot(false) }

// ResetStats reads the node's counters and zeroes them; an answer counted meanwhile lands in
// exactly one of this result or the next.
func (n *Node) ResetStats() Stats { return n.counters.snapshot(true) }
