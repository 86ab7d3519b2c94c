package mocknode

import (
	"math/big"
	"strings"
	"testing"
	"testing/quick"
)

// TestUnsplitmix: the mix every id starts with is inverted exactly, which is what lets the node
// answer a lookup by hash without a table.
func TestUnsplitmix(t *testing.T) {
	f := func(x uint64) bool { return unsplitmix(splitmix(x)) == x }
	if err := quick.Check(f, &quick.Config{MaxCount: 100_000}); err != nil {
		t.Fatal(err)
	}
	for _, x := range []uint64{0, 1, 1<<64 - 1, golden} {
		if !f(x) {
			t.Errorf("unsplitmix(splitmix(%#x)) != %#x", x, x)
		}
	}
}

// TestHashIDs: hashes read back to what they name; any other 32-byte hash, one of another
// domain, or a changed digit names nothing.
func TestHashIDs(t *testing.T) {
	for _, payload := range []uint64{0, 1, ethFirstBlock, ethFirstBlock<<8 | 7, 1<<payloadBits - 1} {
		h := appendHash32(nil, dEthTx, payload)
		raw := h[1 : len(h)-1] // without quotes
		if got, ok := parseHash32(raw, dEthTx); !ok || got != payload {
			t.Errorf("parseHash32(%s) = %d %v, want %d", raw, got, ok, payload)
		}
		if _, ok := parseHash32([]byte(strings.ToUpper(string(raw[2:]))), dEthTx); ok {
			t.Errorf("a hash without 0x was read")
		}
		if got, ok := parseHash32([]byte("0x"+strings.ToUpper(string(raw[2:]))), dEthTx); !ok || got != payload {
			t.Errorf("the upper-case hash was not read: %d %v", got, ok)
		}
		if _, ok := parseHash32(raw, dEthBlock); ok {
			t.Errorf("a transaction hash was read as a block hash")
		}
		for _, at := range []int{2, 20, 40, 65} {
			bad := []byte(string(raw))
			bad[at] = "0123456789abcdef"[(strings.IndexByte(hexDigits, bad[at])+1)%16]
			if _, ok := parseHash32(bad, dEthTx); ok {
				t.Errorf("digit %d changed: %s was read", at, bad)
			}
		}
	}
}

// TestAddressIDs: addresses of the chain read back in any case; others do not.
func TestAddressIDs(t *testing.T) {
	for _, idx := range []uint64{0, 1, ethWallets - 1} {
		a := appendEthAddress(nil, dEthWallet, idx)
		raw := a[1 : len(a)-1]
		if len(raw) != 42 {
			t.Fatalf("address %s is not 42 characters", raw)
		}
		for _, spelled := range []string{string(raw), "0x" + strings.ToUpper(string(raw[2:]))} {
			if d, got, ok := parseEthAddress([]byte(spelled)); !ok || d != dEthWallet || got != idx {
				t.Errorf("parseEthAddress(%s) = %d %d %v, want wallet %d", spelled, d, got, ok, idx)
			}
		}
	}
	if _, _, ok := parseEthAddress([]byte(ethAddr)); ok {
		t.Errorf("an address from outside the chain was read as one of it")
	}
}

// decodeBase58 is a plain reference decoder (big-number arithmetic): the bytes a client gets.
func decodeBase58(t *testing.T, s string) []byte {
	t.Helper()
	n := new(big.Int)
	for _, c := range []byte(s) {
		d := strings.IndexByte(base58Alphabet, c)
		if d < 0 {
			t.Fatalf("%q: %q is not a base58 digit", s, c)
		}
		n.Mul(n, big.NewInt(58)).Add(n, big.NewInt(int64(d)))
	}
	zeros := len(s) - len(strings.TrimLeft(s, "1"))
	return append(make([]byte, zeros), n.Bytes()...)
}

// TestBase58IDs: keys decode to 32 bytes and signatures to 64, as a client's decoder reads
// them, and they read back to what they name.
func TestBase58IDs(t *testing.T) {
	tests := []struct {
		name   string
		digits int
		bytes  int
	}{
		// An account key or blockhash.
		{"key", keyDigits, 32},
		// A transaction signature.
		{"signature", sigDigits, 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range uint64(2000) {
				key := dSolSig.key(solanaFirstSlot<<8 | i)
				id := appendBase58ID(nil, key, tt.digits)
				if got := len(decodeBase58(t, string(id))); got != tt.bytes {
					t.Fatalf("%s decodes to %d bytes, want %d", id, got, tt.bytes)
				}
				if got, ok := parseBase58ID(id, tt.digits); !ok || got != key {
					t.Fatalf("parseBase58ID(%s) = %#x %v, want %#x", id, got, ok, key)
				}
				changed := []byte(string(id))
				changed[tt.digits-1] = base58Alphabet[(base58Value(changed[tt.digits-1])+1)%base]
				if _, ok := parseBase58ID(changed, tt.digits); ok {
					t.Fatalf("%s (last digit changed) was read", changed)
				}
			}
		})
	}
	if _, ok := parseBase58ID([]byte(solAddr+"zz"), keyDigits); ok {
		t.Errorf("an address from outside the ledger was read as one of it")
	}
}

// FuzzIDs: no input makes a parser panic, and whatever is read writes back to the same text.
func FuzzIDs(f *testing.F) {
	f.Add(string(appendHash32(nil, dEthBlock, 5)))
	f.Add(string(appendEthAddress(nil, dEthToken, 1)))
	f.Add(string(appendBase58ID(nil, dSolWallet.key(3), keyDigits)))
	f.Add(string(appendBase58ID(nil, dSolSig.key(3), sigDigits)))
	f.Add("0xzz")
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(strings.Trim(s, `"`))
		if p, ok := parseHash32(b, dEthBlock); ok {
			if w := appendHash32(nil, dEthBlock, p); !strings.EqualFold(string(w[1:len(w)-1]), string(b)) {
				t.Fatalf("hash %s read as %d, which writes %s", b, p, w)
			}
		}
		if d, p, ok := parseEthAddress(b); ok {
			if w := appendEthAddress(nil, d, p); !strings.EqualFold(string(w[1:len(w)-1]), string(b)) {
				t.Fatalf("address %s read as %d/%d, which writes %s", b, d, p, w)
			}
		}
		for _, n := range []int{keyDigits, sigDigits} {
			if k, ok := parseBase58ID(b, n); ok {
				if w := appendBase58ID(nil, k, n); string(w) != string(b) {
					t.Fatalf("id %s read as %#x, which writes %s", b, k, w)
				}
			}
		}
	})
}
