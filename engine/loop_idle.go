//go:build linux

package engine

// idleList is the event loop's open connections without a request, oldest first. The next
// send takes the newest, the one freed last: a rate keeps only as many connections busy as it
// needs (oha's lesson), and those stay warm in the CPU's caches; the others idle out after
// maxIdleConn. Taking the oldest (fasthttp's default) spread 5,000/s over every connection
// dialed and cost 7 % more CPU per request (bench/README, "Reading at the wakes"). It is a
// list through the slots' own links (prev, next), so a connection the server closes leaves it
// in constant time.
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

// pop takes the last slot, the newest; false when there is none.
func (q *idleList) pop(slots []loopSlot) (int, bool) {
	i := q.tail
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
