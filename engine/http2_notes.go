package engine

// What the HTTP/2 transport says once per run, as events, about a server that does not do
// what the profile asked of it: a count of tls errors alone would not say that the server
// refused HTTP/2, nor would a latency that includes waiting for a stream say why.

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
)

// h2notes records each note once into the run's events (none until noteTo gives the log).
type h2notes struct {
	events    atomic.Pointer[EventLog]
	who       string // "target NAME: " in a run with several targets
	onceNoH2  sync.Once
	onceNoH2C sync.Once
	onceLimit sync.Once
	checked   atomic.Bool // the server's stream limit was read (from the first answer)
}

// noteTo makes the transport's notes events of l, about target name ("" for the only one).
// Call it before the first send.
func (h *http2Transport) noteTo(l *EventLog, name string) {
	if name != "" {
		h.notes.who = "target " + name + ": "
	}
	h.notes.events.Store(l)
}

func (n *h2notes) add(detail string) {
	if l := n.events.Load(); l != nil {
		l.Add("http2", n.who+detail)
	}
}

// noH2 says that a server did not agree to HTTP/2 over ALPN: it chose proto, or refused
// (proto "": it chose none, or ended the handshake).
func (n *h2notes) noH2(proto string) {
	n.onceNoH2.Do(func() {
		chose := "it chose no protocol"
		if proto != "" {
			chose = fmt.Sprintf("it chose %q", proto)
		}
		n.add(fmt.Sprintf(`the server did not agree to HTTP/2 over ALPN (%s): its requests count as tls; `+
			`drop http2 = true to test it over HTTP/1.1`, chose))
	})
}

// noH2C says that a server answered h2c's prior knowledge in HTTP/1.1.
func (n *h2notes) noH2C() {
	n.onceNoH2C.Do(func() {
		n.add("the server answered in HTTP/1.1: it does not speak HTTP/2 in cleartext, and its requests count as " +
			"malformed; drop h2c = true to test it over HTTP/1.1")
	})
}

// streams says, after the first answer, when the server allows fewer streams per
// connection than the run's streams: the others wait, and the wait counts in latency.
func (n *h2notes) streams(cc *http.ClientConn, want int) {
	if n.checked.Load() {
		return
	}
	n.checked.Store(true)
	// The server's SETTINGS came before its first answer; what it allows is what the
	// connection has free plus what it carries.
	allowed := cc.Available() + cc.InFlight()
	if allowed == 0 || allowed >= want {
		return
	}
	n.onceLimit.Do(func() {
		n.add(fmt.Sprintf("the server allows %d streams per connection, fewer than streams = %d: "+
			"the rest wait for a free stream, and the wait counts in their latency", allowed, want))
	})
}
