//go:build linux

package engine

// idleList is the event loop's open connections without a request, oldest first: the next
// send takes the one idle longest, as fasthttp's HostClient does by default, so every
// connection stays in use and none is closed for idling while the plan still sends. It is
// a list through the slots' own links (prev, next), so a connection the server closes leaves
// it in constant time.
type idleList struct{ head, tail int }

func (q *idleList) init() { q.head, q.tail = -1, -1 }

func (q *idleList) empty() bool { return q.head < 0 }

// push puts slot i last.
func (q *idleList) push(slots []loopSlot, i int) {
	slots[i].prev, slots[i].next = q.tail, -1
	if q.tail >= 0 {
		slots[q.tail].next = i
	} else {
		q.head = i
	}
	q.tail = i
}

// pop takes the first slot; false when there is none.
func (q *idleList) pop(slots []loopSlot) (int, bool) {
	i := q.head
	if i < 0 {
		return -1, false
	}
	q.remove(slots, i)
	return i, true
}

// remove takes slot i, which is on the list, off it.
func (q *idleList) remove(slots []loopSlot, i int) {
	s := &slots[i]
	if s.prev >= 0 {
		slots[s.prev].next = s.next
	} else {
		q.head = s.next
	}
	if s.next >= 0 {
		slots[s.next].prev = s.prev
	} else {
		q.tail = s.prev
	}
	s.prev, s.next = -1, -1
}
