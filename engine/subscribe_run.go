package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
	"time"
)

// defaultSubMaxMsg bounds one notification when the profile sets no max_body: far above a
// block header or a log, below what would let a broken node fill memory.
const defaultSubMaxMsg = 16 << 20

// subscriptions runs a run's subscribers and their book, apart from the request load.
type subscriptions struct {
	book   *subBook
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// newSubscriptions checks the Config's subscriptions and makes their book, whose events start
// with label (a target's "NAME: "); nil when there are none.
func newSubscriptions(cfg *Config, start time.Time, events *EventLog, label string) (*subscriptions, error) {
	if len(cfg.Subscriptions) == 0 {
		return nil, nil
	}
	var errs []error
	for i := range cfg.Subscriptions {
		errs = append(errs, cfg.Subscriptions[i].Check())
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &subscriptions{book: newSubBook(cfg.Subscriptions, start, events, label)}, nil
}

// run starts the book and every subscription's subscribers, each at its ramp's time after
// start, until stop.
func (s *subscriptions) run(ctx context.Context, cfg *Config, start time.Time) error {
	type plan struct {
		sub  *Subscription
		wd   *wsDialer
		call []byte
	}
	plans := make([]plan, len(cfg.Subscriptions))
	for i := range cfg.Subscriptions {
		sub := &cfg.Subscriptions[i]
		wd, err := subDialer(cfg, sub)
		if err != nil {
			return fmt.Errorf("subscription %s: %w", sub.Name, err)
		}
		plans[i] = plan{sub: sub, wd: wd, call: subscribeCall(sub)}
	}
	ctx, s.cancel = context.WithCancel(ctx)
	go s.book.run()
	seed := maphash.MakeSeed()
	maxMsg := int64(cfg.MaxBodyBytes)
	if maxMsg <= 0 {
		maxMsg = defaultSubMaxMsg
	}
	for ti, p := range plans {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			for i := range p.sub.Subscribers {
				if !sleepCtx(ctx, time.Until(start.Add(p.sub.startAt(i)))) {
					return
				}
				sb := &subscriber{table: uint16(ti), idx: int32(i), call: p.call, wd: p.wd,
					timeout: cfg.Timeout, maxMsg: maxMsg, start: start, out: s.book.in,
					parser: subParser{kind: p.sub.Kind(), seed: seed}}
				s.wg.Add(1)
				go func() {
					defer s.wg.Done()
					sb.run(ctx)
				}()
			}
		}()
	}
	return nil
}

// stop ends every subscriber, then the book, which files the last second; it returns when all
// is settled.
func (s *subscriptions) stop() {
	if s.cancel != nil {
		s.cancel()
	}
	s.wg.Wait()
	close(s.book.in)
	<-s.book.done
}

// subscribeCall is the JSON-RPC call that subscribes.
func subscribeCall(sub *Subscription) []byte {
	method, _ := json.Marshal(sub.Method)
	params := sub.Params
	if len(params) == 0 {
		params = []byte("[]")
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":%s,"params":%s}`, method, params)
}

// subDialer is how a subscription's subscribers dial: the run's TLS settings (offering
// HTTP/1.1: the upgrade is its) and headers (an API key in a header), through a dialer that
// counts nothing in the run's Counters, whose connections are the requests' (a subscription's
// dials are its own, SubStats.Dial).
func subDialer(cfg *Config, sub *Subscription) (*wsDialer, error) {
	t, err := parseURL(sub.URL, sub.DisplayURL, cfg.Headers)
	if err != nil {
		return nil, err
	}
	d := &dialer{timeout: cfg.Timeout}
	if t.tls {
		if d.tls, err = clientTLS(nil, cfg.TLS, t.host, "http/1.1"); err != nil {
			return nil, err
		}
	}
	return newWSDialer(t, cfg.Headers, d)
}
