package engine

// One live WebSocket connection (a link) of a slot (ws_slot.go): its writer, shared by the
// exchanges of the slot under a mutex, one frame per call; its reader, a goroutine that reads
// answers and hands each to the exchange waiting for its id; and the table of those waiting.
// A link that breaks fails every call waiting on it with errWSClosed, and is never used again:
// the slot dials a new one.

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/gobwas/ws"
	"github.com/valyala/fasthttp"
)

// errWSClosed is what the calls waiting on a WebSocket connection get when it closes or
// breaks under them: ClassifyError counts them as ErrWSClosed, a class of their own.
var errWSClosed = errors.New("the WebSocket connection closed with the call in flight")

// wsFrameRoom is the room kept before a message for its frame header: 2 bytes, 8 for a 64-bit
// length, 4 for the mask.
const wsFrameRoom = 14

// link is one WebSocket connection.
type link struct {
	conn net.Conn
	br   *bufio.Reader
	max  int // Config.MaxBodyBytes: a longer answer is toolarge

	wmu sync.Mutex // one frame at a time on the wire

	mu      sync.Mutex
	waiting map[uint64]*wsWaiter // by every id of the call in flight; a batch is there once per call
	closed  error                // why the link ended; nil while it is up
	done    chan struct{}        // closed when the reader has stopped
}

// wsWaiter is one exchange's call in flight: the reader hands it the answer, or the error
// that ended the link, and signals ready.
type wsWaiter struct {
	base  uint64 // the first id of the call
	n     int    // how many ids it holds in waiting
	ready chan struct{}
	msg   []byte // the answer; its buffer goes back and forth with the reader's
	head  int    // the answer's frame header size, for BytesIn
	err   error
}

func newWaiter() *wsWaiter { return &wsWaiter{ready: make(chan struct{}, 1)} }

// newLink starts the reader of a connection whose handshake is done; br holds what the server
// sent after it, if anything.
func newLink(conn net.Conn, br *bufio.Reader, maxBody int) *link {
	if br == nil {
		br = bufio.NewReaderSize(conn, 32<<10)
	}
	l := &link{conn: conn, br: br, max: maxBody, waiting: map[uint64]*wsWaiter{}, done: make(chan struct{})}
	go l.read()
	return l
}

// wait registers w for ids base … base+n−1; an error (errWSClosed) when the link has closed
// already.
func (l *link) wait(w *wsWaiter, base uint64, n int) error {
	w.base, w.n, w.err = base, n, nil
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed != nil {
		return l.closed
	}
	for i := range n {
		l.waiting[base+uint64(i)] = w
	}
	return nil
}

// forget takes w out of waiting; false when the reader took it first, so an answer or an error
// is on its way to it.
func (l *link) forget(w *wsWaiter) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waiting[w.base] != w {
		return false
	}
	for i := range w.n {
		delete(l.waiting, w.base+uint64(i))
	}
	return true
}

// send writes frame (see framer) by deadline. An error closes the link: a frame cut short
// would garble every frame after it.
func (l *link) send(frame []byte, deadline time.Time) error {
	l.wmu.Lock()
	err := l.conn.SetWriteDeadline(deadline)
	if err == nil {
		_, err = l.conn.Write(frame)
	}
	l.wmu.Unlock()
	if err != nil {
		l.close(err)
	}
	return err
}

// framer makes a client's frame in place: a message is written wsFrameRoom bytes into its
// buffer, and frame puts the header and mask in the room before it and masks it, so a frame
// costs neither a copy nor an allocation. One per exchange (it is the writer gobwas/ws writes
// the header to, and a pointer to it converts to io.Writer without allocating).
type framer struct {
	hbuf [ws.MaxHeaderSize]byte
	at   []byte // where Write puts the header
}

func (f *framer) Write(p []byte) (int, error) { return copy(f.at, p), nil }

// frame turns msg (wsFrameRoom bytes of room, then the payload) into a masked frame of op and
// returns it; msg's payload is spent.
func (f *framer) frame(op ws.OpCode, msg []byte) []byte {
	payload := msg[wsFrameRoom:]
	r := rand.Uint32() // a mask per frame, as RFC 6455 asks of clients
	h := ws.Header{Fin: true, OpCode: op, Masked: true, Length: int64(len(payload)),
		Mask: [4]byte{byte(r), byte(r >> 8), byte(r >> 16), byte(r >> 24)}}
	frame := msg[wsFrameRoom-ws.HeaderSize(h):]
	f.at = frame
	_ = ws.WriteHeaderBuffer(f, h, f.hbuf[:]) // cannot fail: the buffer fits any header
	f.at = nil
	ws.Cipher(payload, h.Mask, 0)
	return frame
}

// put makes a frame of op carrying a copy of payload in dst's storage (nil: a new buffer).
func (f *framer) put(dst []byte, op ws.OpCode, payload []byte) []byte {
	if dst == nil {
		dst = make([]byte, 0, wsFrameRoom+len(payload))
	}
	return f.frame(op, append(append(dst[:0], make([]byte, wsFrameRoom)...), payload...))
}

// read reads messages until the connection ends, handing each answer to its waiter. Pings are
// answered; a close from the server, a read error or a frame that breaks the protocol ends the
// link.
func (l *link) read() {
	defer close(l.done)
	r := wsReader{br: l.br, limit: wsMaxFrame, pong: l.pong}
	var msg []byte // the buffer the next message is read into
	for {
		m, head, err := r.next(msg)
		if err != nil {
			l.close(err)
			return
		}
		msg = l.deliver(m, head)
	}
}

// wsMaxFrame bounds a frame the reader takes into memory, whatever the body cap: past it the
// connection is given up rather than the tester's memory.
const wsMaxFrame = 256 << 20

// grow is b with length n, its contents kept.
func grow(b []byte, n int) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	nb := make([]byte, n, max(n, 2*cap(b)))
	copy(nb, b)
	return nb
}

// deliver hands msg to the waiter of its id, swapping buffers with it so neither copies nor
// allocates; it returns the buffer to read the next message into. A message whose id waits
// for nothing (the answer to a call that timed out, a notification) is dropped.
func (l *link) deliver(msg []byte, head int) []byte {
	id, ok := wsAnswerID(msg)
	if !ok {
		return msg[:0]
	}
	l.mu.Lock()
	w := l.waiting[id]
	if w != nil {
		for i := range w.n {
			delete(l.waiting, w.base+uint64(i))
		}
	}
	l.mu.Unlock()
	if w == nil {
		return msg[:0]
	}
	next := w.msg[:0]
	w.msg, w.head = msg, head
	if len(msg) > l.max {
		w.msg, w.err = msg[:0], fasthttp.ErrBodyTooLarge
	}
	w.ready <- struct{}{}
	return next
}

// pong answers a ping with its payload (rare: its own buffer).
func (l *link) pong(p []byte) {
	var f framer
	_ = l.send(f.put(nil, ws.OpPong, p), time.Now().Add(time.Second))
}

// close ends the link for cause (the first cause stays): the connection is closed and every
// call waiting on it gets errWSClosed.
func (l *link) close(cause error) {
	l.mu.Lock()
	if l.closed != nil {
		l.mu.Unlock()
		return
	}
	l.closed = fmt.Errorf("%w: %w", errWSClosed, cause)
	var fail []*wsWaiter
	for id, w := range l.waiting {
		if id == w.base {
			fail = append(fail, w)
		}
	}
	clear(l.waiting)
	l.mu.Unlock()
	_ = l.conn.Close()
	for _, w := range fail {
		w.err = l.closed
		w.ready <- struct{}{}
	}
}

// shut says goodbye (a close frame, 1000) and closes the link; for the end of a run.
func (l *link) shut() {
	var f framer
	_ = l.send(f.put(nil, ws.OpClose, ws.NewCloseFrameBody(ws.StatusNormalClosure, "")), time.Now().Add(time.Second))
	l.close(errWSClosed)
	<-l.done
}
