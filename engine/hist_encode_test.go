package engine

import (
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// libraryEncoding is h as hdrhistogram-go writes it: the reference the encoder must match.
func libraryEncoding(t testing.TB, h hdrCounts) string {
	t.Helper()
	var b []byte
	var err error
	switch c := h.(type) {
	case *hdr.Histogram:
		b, err = c.EncodeV2()
	case *hdr.PackedHistogram:
		b, err = c.EncodeV2()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// spread records n values from 1 µs to beyond the highest trackable one, log-uniform, so most
// buckets of the range are touched and zero runs of every length occur.
func spread(h hdrCounts, seed uint64, n int) hdrCounts {
	rng := rand.New(rand.NewPCG(seed, 1))
	for range n {
		recordNanos(h, int64(1000*(1<<rng.IntN(43)+rng.Int64N(1<<20))))
	}
	return h
}

// TestHistEncoderMatchesLibrary: the encoder writes what hdrhistogram-go's EncodeV2 writes, to
// the byte, for the dense and packed histograms the aggregator keeps, so a snapshot is the same
// whoever encoded it; one encoder encodes them all in turn, reusing its buffers.
func TestHistEncoderMatchesLibrary(t *testing.T) {
	dense := func(sf int) *hdr.Histogram { return hdr.New(histLowest, histHighest, sf) }
	packed := func(sf int) *hdr.PackedHistogram { return hdr.NewPacked(histLowest, histHighest, sf) }
	one := func(h hdrCounts, us int64) hdrCounts { _ = h.RecordValue(us); return h }
	huge := dense(3)
	_ = huge.RecordValues(1000, 1<<60) // a count of nine bytes in LEB128-64b9B
	tests := []struct {
		name string
		h    hdrCounts
	}{
		{"empty dense", dense(3)},                      // one zero count, no run
		{"empty packed", packed(2)},                    // the same through the scratch histogram
		{"lowest value", one(dense(3), histLowest)},    // nothing before the first count
		{"highest value", one(dense(3), histHighest)},  // one long run of zeros, then the count
		{"one value packed", one(packed(2), 1234)},     // a request's histogram
		{"spread dense", spread(dense(3), 1, 5000)},    // the run's and stages' histograms
		{"spread dense 2", spread(dense(2), 2, 5000)},  // the lag histogram's figures
		{"spread packed", spread(packed(2), 3, 5000)},  // a request's, full
		{"spread packed 3", spread(packed(3), 4, 500)}, // packed at three figures
		{"single zeros", one(one(dense(3), 1), 3)},     // 1 and 3: a lone zero between
		{"huge count", huge},                           // the ninth byte of a count
		{"after reset", func() hdrCounts { h := spread(dense(3), 5, 100); h.Reset(); return one(h, 77) }()}, // Reset leaves no trace
	}
	var e histEncoder
	for _, tt := range tests {
		got, err := e.encode(tt.h)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if want := libraryEncoding(t, tt.h); got != want {
			t.Errorf("%s: encoded\n%s\nthe library writes\n%s", tt.name, got, want)
		}
	}
}

// TestAppendZigZag: LEB128-64b9B at the edges of its byte counts; nine bytes at most, where
// LEB128 would take ten.
func TestAppendZigZag(t *testing.T) {
	tests := []struct {
		v    int64
		want []byte
	}{
		{0, []byte{0}},           // zero
		{-1, []byte{1}},          // negative numbers are odd
		{1, []byte{2}},           // positive ones even
		{63, []byte{0x7e}},       // the largest of one byte
		{64, []byte{0x80, 0x01}}, // the first of two
		{-2, []byte{3}},          // a run of two zeros
		{1 << 55, append(bytesOf(0x80, 8), 0x01)},  // 2^56 after ZigZag: the ninth byte
		{-1 << 63, append(bytesOf(0xff, 8), 0xff)}, // the largest ZigZag value: nine bytes, all set
	}
	for _, tt := range tests {
		if got := appendZigZag(nil, tt.v); string(got) != string(tt.want) {
			t.Errorf("appendZigZag(%d) = % x, want % x", tt.v, got, tt.want)
		}
	}
}

func bytesOf(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// allocated is the bytes f allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHistEncoderReusesCompressor: encoding a run's histogram again allocates a fraction of
// what the library allocates for it (a new zlib compressor of about 1 MiB every time), so a
// periodic save leaves little garbage behind.
func TestHistEncoderReusesCompressor(t *testing.T) {
	h := spread(hdr.New(histLowest, histHighest, histSigFigs), 7, 5000)
	var e histEncoder
	if _, err := e.encode(h); err != nil { // the first makes the compressor and the buffers
		t.Fatal(err)
	}
	const n = 10
	ours := allocated(func() {
		for range n {
			if _, err := e.encode(h); err != nil {
				t.Fatal(err)
			}
		}
	}) / n
	lib := allocated(func() {
		for range n {
			_ = libraryEncoding(t, h)
		}
	}) / n
	t.Logf("an encoding allocates %d KiB, the library's %d KiB", ours>>10, lib>>10)
	if ours*4 > lib {
		t.Errorf("an encoding allocated %d KiB, the library's %d KiB: want a quarter at most", ours>>10, lib>>10)
	}
}

// FuzzHistEncoder: whatever values are recorded, dense or packed, the encoding is the
// library's, and it decodes to the same counts.
func FuzzHistEncoder(f *testing.F) {
	f.Add([]byte{}, false)
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0}, true)
	f.Add(binary.LittleEndian.AppendUint64(nil, histHighest), false)
	var e histEncoder
	f.Fuzz(func(t *testing.T, values []byte, isPacked bool) {
		var h hdrCounts = hdr.New(histLowest, histHighest, histSigFigs)
		if isPacked {
			h = hdr.NewPacked(histLowest, histHighest, 2)
		}
		for len(values) >= 8 {
			recordNanos(h, int64(binary.LittleEndian.Uint64(values)>>1))
			values = values[8:]
		}
		got, err := e.encode(h)
		if err != nil {
			t.Fatal(err)
		}
		if want := libraryEncoding(t, h); got != want {
			t.Fatalf("encoded %s, the library writes %s", got, want)
		}
		back, err := DecodeHistogram(got)
		if err != nil || back.TotalCount() != h.TotalCount() {
			t.Fatalf("decoded %v (error %v), want %d values", back, err, h.TotalCount())
		}
	})
}
