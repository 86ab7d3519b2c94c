package answers

import (
	"fmt"
	"slices"
	"strings"
)

// blockAnswer is an eth_getBlockByNumber answer as geth writes it, keys sorted (about 1.6 KB
// with its transaction hashes): id is the JSON-RPC id, number the block's and ts its timestamp,
// so two calls differ where a test wants them to.
func blockAnswer(id int, number, ts uint64) []byte { return blockWith(id, number, ts, false) }

// blockWith writes the block's keys sorted, as geth does, or in reverse (as a node that
// marshals a struct writes them in no sorted order).
func blockWith(id int, number, ts uint64, reversed bool) []byte {
	hash := func(seed uint64) string { return fmt.Sprintf(`"0x%064x"`, seed*0x9e3779b97f4a7c15) }
	var txs []string
	for i := range 8 {
		txs = append(txs, hash(number*100+uint64(i)))
	}
	fields := []string{
		`"baseFeePerGas":"0x7"`, `"difficulty":"0x0"`, `"extraData":"0x"`, `"gasLimit":"0x1c9c380"`,
		`"gasUsed":"0x5208"`, `"hash":` + hash(number), `"logsBloom":"0x` + strings.Repeat("0", 512) + `"`,
		`"miner":"0x0000000000000000000000000000000000000000"`, `"mixHash":` + hash(number+1),
		`"nonce":"0x0000000000000000"`, fmt.Sprintf(`"number":"0x%x"`, number), `"parentHash":` + hash(number-1),
		`"receiptsRoot":` + hash(number+2), `"sha3Uncles":` + hash(number+3), `"size":"0x2a5"`,
		`"stateRoot":` + hash(number+4), fmt.Sprintf(`"timestamp":"0x%x"`, ts),
		`"transactions":[` + strings.Join(txs, ",") + `]`, `"transactionsRoot":` + hash(number+5),
		`"uncles":[]`, `"withdrawals":[]`, `"withdrawalsRoot":` + hash(number+6),
	}
	if reversed {
		slices.Reverse(fields)
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{%s}}`, id, strings.Join(fields, ","))
}

// balanceAnswer is a small eth_getBalance answer.
func balanceAnswer(id int, wei uint64) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":"0x%x"}`, id, wei)
}
