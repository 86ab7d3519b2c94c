package mocknode

// appendList writes items as a JSON array, each by item. The answers write many lists; one
// writer keeps their commas right. item is called in place (it does not escape), so a closure
// passed here costs no allocation: TestAnswersDoNotAllocate holds every answer to 0.
func appendList[T any](dst []byte, items []T, item func(dst []byte, v T) []byte) []byte {
	dst = append(dst, '[')
	for i, v := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = item(dst, v)
	}
	return append(dst, ']')
}

// appendCount writes n elements as a JSON array, the i-th by item.
func appendCount(dst []byte, n uint64, item func(dst []byte, i uint64) []byte) []byte {
	dst = append(dst, '[')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = item(dst, i)
	}
	return append(dst, ']')
}
