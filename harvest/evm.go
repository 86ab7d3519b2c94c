package harvest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// transferTopic is keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 share it;
// ERC-20 puts the amount in data (3 topics), ERC-721 the token id in a 4th topic.
const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

// balanceOfSelector is the first 4 bytes of keccak256("balanceOf(address)").
const balanceOfSelector = "0x70a08231"

// zeroAddress: mints come from it and burns go to it; it holds nothing worth asking about.
const zeroAddress = "0x0000000000000000000000000000000000000000"

// logSpan is the width of the eth_getLogs filters written to log_ranges.txt: ten blocks is a
// typical dapp's poll, heavy enough to matter, light enough for any node's result limit.
const logSpan = 10

// logChunk is how many blocks one eth_getLogs reads while harvesting; halved while the node
// refuses (result limits), down to one block.
const logChunk = 500

// evm harvests an Ethereum-like chain.
type evm struct {
	c                                 *client
	blocks, hashes, txs, addrs, contr *set
	tokens, calls, ranges             *set
	from                              int64 // the first block read: log ranges start no lower
}

func (e *evm) declare(k *sink) {
	e.blocks = k.file("blocks.txt", "block numbers (hex), for eth_getBlockByNumber and state at a block")
	e.hashes = k.file("block_hashes.txt", "block hashes, for eth_getBlockByHash")
	e.txs = k.file("tx_hashes.txt", "transaction hashes, for eth_getTransactionByHash and eth_getTransactionReceipt")
	e.addrs = k.file("addresses.txt", "senders and recipients of transactions, for eth_getBalance and eth_getTransactionCount")
	e.contr = k.file("contracts.txt", "contracts that emitted logs, for eth_getCode and eth_getLogs by address")
	e.tokens = k.file("erc20_tokens.txt", "ERC-20 token contracts seen in Transfer logs")
	e.calls = k.file("erc20_calls.txt", `eth_call objects {"to":token,"data":balanceOf(holder)} for holders seen in Transfer logs`)
	e.ranges = k.file("log_ranges.txt", `eth_getLogs filters {"fromBlock","toBlock"} of up to 10 blocks that hold logs, inside the blocks read`)
}

func (e *evm) identify(ctx context.Context) (string, int64, error) {
	var id string
	if err := e.c.first(ctx, "eth_chainId", &id, "an EVM node (for a Solana node give --chain solana)"); err != nil {
		return "", 0, err
	}
	if _, err := parseHex(id); err != nil {
		return "", 0, fmt.Errorf("eth_chainId answered %q, not a hex number: it is not an EVM node", id)
	}
	var h string
	if err := e.c.one(ctx, "eth_blockNumber", &h); err != nil {
		return "", 0, err
	}
	head, err := parseHex(h)
	if err != nil {
		return "", 0, fmt.Errorf("eth_blockNumber answered %q, not a hex number", h)
	}
	if head == 0 {
		return "", 0, fmt.Errorf("%w: the head is block 0 (genesis), there is no history to harvest yet", ErrEmpty)
	}
	return id, head, nil
}

// window finds the oldest block whose body and state the node serves. Pruned nodes keep state
// for recent blocks only (and, with history expiry, bodies too); older ones answer fast errors or
// null, which a load test must not ask for. Served blocks form a suffix of the chain, so a binary
// search finds where it starts in log2(head) probes.
func (e *evm) window(ctx context.Context, head int64) (int64, int64, string, error) {
	ok, err := e.served(ctx, head)
	if err != nil {
		return 0, 0, "", err
	}
	if !ok {
		return 0, 0, "", fmt.Errorf("the node does not serve its own head block %d (eth_getBlockByNumber or eth_getBalance at it failed): is it still syncing?", head)
	}
	if ok, err := e.served(ctx, 0); err != nil {
		return 0, 0, "", err
	} else if ok {
		return 0, 0, "the node serves every block's state from genesis (an archive node)", nil
	}
	lo, hi := int64(0), head // lo is not served, hi is
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := e.served(ctx, mid)
		if err != nil {
			return 0, 0, "", err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	// Tracing block n (debug_trace*, debug_storageRangeAt) replays it on its parent's state, so
	// the first served block is not used: its traces would fail on a pruned node.
	usable := min(hi+1, head)
	return hi, usable, fmt.Sprintf("the node serves state from block %d on (%d blocks behind the head); blocks from %d on are used (tracing a block needs its parent's state)", hi, head-hi, usable), nil
}

// served asks for block n and the state at it. A JSON-RPC error or a null block means not
// served; a transport error is the caller's.
func (e *evm) served(ctx context.Context, n int64) (bool, error) {
	cs := []call{
		{Method: "eth_getBlockByNumber", Params: []any{hexNum(n), false}},
		{Method: "eth_getBalance", Params: []any{zeroAddress, hexNum(n)}},
	}
	if err := e.c.do(ctx, cs); err != nil {
		return false, err
	}
	for _, c := range cs {
		if c.Err != nil || isNull(c.Result) {
			return false, nil
		}
	}
	return true, nil
}

type evmTx struct {
	Hash string `json:"hash"`
	From string `json:"from"`
	To   string `json:"to"`
}

type evmBlock struct {
	Number       string  `json:"number"`
	Hash         string  `json:"hash"`
	Transactions []evmTx `json:"transactions"`
}

type evmLog struct {
	Address     string   `json:"address"`
	Topics      []string `json:"topics"`
	Data        string   `json:"data"`
	BlockNumber string   `json:"blockNumber"`
}

func (e *evm) read(ctx context.Context, from, to int64, done func(int)) (int, []string, error) {
	e.from = from
	read := 0
	var skipped []string
	for n := from; n <= to; {
		end := min(to, n+int64(e.c.batch)-1)
		cs := make([]call, 0, end-n+1)
		for b := n; b <= end; b++ {
			cs = append(cs, call{Method: "eth_getBlockByNumber", Params: []any{hexNum(b), true}})
		}
		if err := e.c.do(ctx, cs); err != nil {
			return read, skipped, err
		}
		for i, c := range cs {
			if s := e.block(n+int64(i), c); s != "" {
				skipped = append(skipped, s)
				continue
			}
			read++
		}
		done(len(cs))
		n = end + 1
	}
	logSkips, err := e.logs(ctx, from, to)
	return read, append(skipped, logSkips...), err
}

// block files one block's answer; it returns why the block was skipped, or "".
func (e *evm) block(n int64, c call) string {
	if c.Err != nil {
		return fmt.Sprintf("block %d: %v", n, c.Err)
	}
	if isNull(c.Result) {
		return fmt.Sprintf("block %d: the node answered null", n)
	}
	var b evmBlock
	if err := json.Unmarshal(c.Result, &b); err != nil {
		return fmt.Sprintf("block %d: not a block (%v)", n, err)
	}
	e.blocks.add(hexNum(n))
	e.hashes.add(b.Hash)
	for _, t := range b.Transactions {
		e.txs.add(t.Hash)
		e.addrs.add(strings.ToLower(t.From))
		e.addrs.add(strings.ToLower(t.To)) // "" (a contract creation) is not added
	}
	return ""
}

// logs reads the logs of from..to in chunks, halving a chunk the node refuses (result limits).
func (e *evm) logs(ctx context.Context, from, to int64) ([]string, error) {
	var skipped []string
	chunk := int64(logChunk)
	for n := from; n <= to; {
		end := min(to, n+chunk-1)
		var ls []evmLog
		err := e.c.one(ctx, "eth_getLogs", &ls, map[string]string{"fromBlock": hexNum(n), "toBlock": hexNum(end)})
		var re *RPCError
		switch {
		case errors.As(err, &re) && chunk > 1:
			chunk /= 2
			continue
		case errors.As(err, &re):
			skipped = append(skipped, fmt.Sprintf("logs of block %d: %v", n, err))
		case err != nil:
			return skipped, err
		default:
			e.fileLogs(ls, to)
		}
		n = end + 1
	}
	return skipped, nil
}

// fileLogs files the logs of blocks up to to. A log range is the logSpan blocks around the log,
// cut to the blocks read: past the last (the head) geth refuses the filter ("block range extends
// beyond current head block"), below the window a pruned node no longer has the blocks.
func (e *evm) fileLogs(ls []evmLog, to int64) {
	for _, l := range ls {
		addr := strings.ToLower(l.Address)
		e.contr.add(addr)
		if bn, err := parseHex(l.BlockNumber); err == nil {
			lo := bn - bn%logSpan
			hi := min(lo+logSpan-1, to)
			lo = max(lo, e.from) // never below the window: the node may not serve it
			e.ranges.add(fmt.Sprintf(`{"fromBlock":"%s","toBlock":"%s"}`, hexNum(lo), hexNum(hi)))
		}
		if len(l.Topics) != 3 || !strings.EqualFold(l.Topics[0], transferTopic) {
			continue
		}
		e.tokens.add(addr)
		for _, t := range l.Topics[1:] {
			h := topicAddress(t)
			if h == "" || h == zeroAddress {
				continue
			}
			e.calls.add(fmt.Sprintf(`{"to":"%s","data":"%s%024x%s"}`, addr, balanceOfSelector, 0, h[2:]))
		}
	}
}

// topicAddress is the address in a 32-byte topic (its last 20 bytes), or "".
func topicAddress(t string) string {
	t = strings.ToLower(strings.TrimPrefix(t, "0x"))
	if len(t) != 64 || strings.Trim(t[:24], "0") != "" {
		return ""
	}
	return "0x" + t[24:]
}

func hexNum(n int64) string { return "0x" + strconv.FormatInt(n, 16) }

func parseHex(s string) (int64, error) {
	if !strings.HasPrefix(s, "0x") || len(s) < 3 {
		return 0, fmt.Errorf("not a 0x number: %q", s)
	}
	return strconv.ParseInt(s[2:], 16, 64)
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }
