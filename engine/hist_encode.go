package engine

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// histEncoder writes histograms as snapshots hold them: HDR's V2 compressed encoding in base64,
// byte for byte what hdrhistogram-go's EncodeV2 writes (TestHistEncoderMatchesLibrary), into
// buffers and one zlib compressor it keeps. The library makes a new compressor for every
// histogram, about 1 MiB at its best compression; a periodic save of a run of two targets
// encodes twenty histograms, so each save made 17 MiB of garbage, and the collection that
// overlapped a save counted much of it live and doubled that into its heap goal (the run's
// memory grew by the save, not by what it kept). The targets of a run share one encoder (its
// compressor alone holds 0.9 MiB), their snapshots encoded one after another.
type histEncoder struct {
	mu    sync.Mutex // held for an encoding: the buffers below are one encoding's
	zw    *zlib.Writer
	zbuf  bytes.Buffer // the compressed inner encoding
	raw   []byte       // the inner encoding: header and payload
	out   []byte       // the outer encoding before base64
	dense map[histGeometry]*hdr.Histogram
}

// histGeometry is what decides a histogram's buckets; a packed histogram is encoded through a
// dense one of the same geometry (its counts merged in, index to index).
type histGeometry struct {
	lowest, highest, sigFigs int64
}

// V2 encoding: the inner encoding's cookie, and the outer (compressed) one's. Version 0x10 is
// the one Java, C and Go write.
const (
	histCookie           = hdr.V2EncodingCookieBase | 0x10
	histCompressedCookie = hdr.V2CompressedEncodingCookieBase | 0x10
)

// encode is h's V2 compressed, base64 encoding.
func (e *histEncoder) encode(h hdrCounts) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var snap *hdr.Snapshot
	switch c := h.(type) {
	case *hdr.Histogram:
		snap = c.Export()
	case *hdr.PackedHistogram:
		d := e.scratch(histGeometry{c.LowestTrackableValue(), c.HighestTrackableValue(), c.SignificantFigures()})
		if dropped := c.MergeInto(d); dropped != 0 {
			return "", fmt.Errorf("encoding a histogram: %d counts did not fit its own geometry", dropped)
		}
		snap = d.Export()
	default:
		return "", fmt.Errorf("encoding a histogram: unknown kind %T", h)
	}
	return e.encodeCounts(snap)
}

// encodeEmpty is the encoding of an empty histogram of geometry g.
func (e *histEncoder) encodeEmpty(g histGeometry) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.encodeCounts(e.scratch(g).Export())
}

// scratch is the encoder's dense histogram of geometry g, emptied.
func (e *histEncoder) scratch(g histGeometry) *hdr.Histogram {
	if e.dense == nil {
		e.dense = map[histGeometry]*hdr.Histogram{}
	}
	d, ok := e.dense[g]
	if !ok {
		d = hdr.New(g.lowest, g.highest, int(g.sigFigs))
		e.dense[g] = d
	}
	d.Reset()
	return d
}

// encodeCounts writes the V2 encoding of a histogram's counts: a 40-byte header, then the
// counts up to the last one that is not zero (at least one), each a ZigZag LEB128 number, a
// run of zeros written as minus its length; all of it zlib-compressed behind an 8-byte header.
func (e *histEncoder) encodeCounts(s *hdr.Snapshot) (string, error) {
	limit := 1
	for i := len(s.Counts) - 1; i > 0; i-- {
		if s.Counts[i] != 0 {
			limit = i + 1
			break
		}
	}
	ratio := s.IntegerToDoubleConversionRatio
	if ratio == 0 {
		ratio = 1
	}
	raw := e.raw[:0]
	raw = binary.BigEndian.AppendUint32(raw, uint32(histCookie))
	raw = binary.BigEndian.AppendUint32(raw, 0) // the payload's length, set below
	raw = binary.BigEndian.AppendUint32(raw, 0) // normalizing index offset: counts unrotated
	raw = binary.BigEndian.AppendUint32(raw, uint32(s.SignificantFigures))
	raw = binary.BigEndian.AppendUint64(raw, uint64(s.LowestTrackableValue))
	raw = binary.BigEndian.AppendUint64(raw, uint64(s.HighestTrackableValue))
	raw = binary.BigEndian.AppendUint64(raw, math.Float64bits(ratio))
	for i := 0; i < limit; {
		n, zeros := s.Counts[i], int64(0)
		for i++; n == 0 && i < limit && s.Counts[i] == 0; i++ {
			zeros++
		}
		if zeros > 0 {
			n = -(zeros + 1)
		}
		raw = appendZigZag(raw, n)
	}
	binary.BigEndian.PutUint32(raw[4:], uint32(len(raw)-hdr.ENCODING_HEADER_SIZE))
	e.raw = raw

	e.zbuf.Reset()
	if e.zw == nil {
		zw, err := zlib.NewWriterLevel(&e.zbuf, zlib.BestCompression)
		if err != nil {
			return "", fmt.Errorf("encoding a histogram: %w", err)
		}
		e.zw = zw
	} else {
		e.zw.Reset(&e.zbuf)
	}
	if _, err := e.zw.Write(raw); err != nil {
		return "", fmt.Errorf("encoding a histogram: %w", err)
	}
	if err := e.zw.Close(); err != nil {
		return "", fmt.Errorf("encoding a histogram: %w", err)
	}
	out := binary.BigEndian.AppendUint32(e.out[:0], uint32(histCompressedCookie))
	out = binary.BigEndian.AppendUint32(out, uint32(e.zbuf.Len()))
	out = append(out, e.zbuf.Bytes()...)
	e.out = out
	return base64.StdEncoding.EncodeToString(out), nil
}

// appendZigZag appends v in HDR's ZigZag LEB128-64b9B form: seven bits a byte, low bits first,
// and a ninth byte, if needed, carrying its full eight (LEB128 would need a tenth).
func appendZigZag(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for range 8 {
		if u < 0x80 {
			return append(b, byte(u))
		}
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}
