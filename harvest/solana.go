package harvest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Solana answers these for slots it has no block for: skipped (-32007), not confirmed or cleaned
// up from the ledger (-32004, -32009); they are a fact of the chain, not a failure.
var solanaNoBlock = map[int]bool{-32004: true, -32007: true, -32009: true}

// maxGetBlocks is the widest slot range getBlocks takes.
const maxGetBlocks = 500_000

// solana harvests a Solana cluster.
type solana struct {
	c                          *client
	slots, sigs, accts, progrs *set
}

func (s *solana) declare(k *sink) {
	s.slots = k.file("slots.txt", "slots with a block, for getBlock")
	s.sigs = k.file("signatures.txt", "transaction signatures, for getTransaction and getSignatureStatuses")
	s.accts = k.file("accounts.txt", "accounts that transactions touched, for getBalance, getAccountInfo and getSignaturesForAddress")
	s.progrs = k.file("programs.txt", "program ids that transactions invoked, for getAccountInfo and (heavy) getProgramAccounts")
}

func (s *solana) identify(ctx context.Context) (string, int64, error) {
	var genesis string
	if err := s.c.first(ctx, "getGenesisHash", &genesis, "a Solana node (for an EVM node give --chain evm)"); err != nil {
		return "", 0, err
	}
	var head int64
	if err := s.c.one(ctx, "getSlot", &head, map[string]string{"commitment": "finalized"}); err != nil {
		return "", 0, err
	}
	if head == 0 {
		return "", 0, fmt.Errorf("%w: the finalized slot is 0, there is no history to harvest yet", ErrEmpty)
	}
	return genesis, head, nil
}

// window is the first slot the node still has a block for. Solana serves account state at the
// present only, so the ledger's history is what a pruned node lacks; it says where it starts.
func (s *solana) window(ctx context.Context, head int64) (int64, int64, string, error) {
	var first int64
	if err := s.c.one(ctx, "getFirstAvailableBlock", &first); err != nil {
		return 0, 0, "", err
	}
	if first > head {
		return 0, 0, "", fmt.Errorf("the node's first available block (slot %d) is after its finalized slot %d: is it still catching up?", first, head)
	}
	if first == 0 {
		return 0, 0, "the node keeps the ledger from slot 0 (account state is the present's on Solana)", nil
	}
	return first, first, fmt.Sprintf("the node keeps blocks from slot %d on (%d slots behind the head); older slots are not used (account state is the present's on Solana)", first, head-first), nil
}

type solBlock struct {
	Transactions []struct {
		Transaction struct {
			Signatures []string `json:"signatures"`
			Message    struct {
				AccountKeys  []string `json:"accountKeys"`
				Instructions []struct {
					ProgramIDIndex int `json:"programIdIndex"`
				} `json:"instructions"`
			} `json:"message"`
		} `json:"transaction"`
	} `json:"transactions"`
}

func (s *solana) read(ctx context.Context, from, to int64, done func(int)) (int, []string, error) {
	if to-from+1 > maxGetBlocks {
		from = to - maxGetBlocks + 1
	}
	var slots []int64
	if err := s.c.one(ctx, "getBlocks", &slots, from, to, map[string]string{"commitment": "finalized"}); err != nil {
		return 0, nil, err
	}
	done(int(to-from+1) - len(slots)) // slots without a block count as read: there is nothing to read
	read := 0
	var skipped []string
	cfg := map[string]any{"encoding": "json", "transactionDetails": "full", "rewards": false,
		"maxSupportedTransactionVersion": 0, "commitment": "finalized"}
	for i := 0; i < len(slots); {
		end := min(len(slots), i+s.c.batch)
		cs := make([]call, 0, end-i)
		for _, slot := range slots[i:end] {
			cs = append(cs, call{Method: "getBlock", Params: []any{slot, cfg}})
		}
		if err := s.c.do(ctx, cs); err != nil {
			return read, skipped, err
		}
		for j, c := range cs {
			if why := s.block(slots[i+j], c); why != "" {
				skipped = append(skipped, why)
				continue
			}
			read++
		}
		done(len(cs))
		i = end
	}
	return read, skipped, nil
}

// block files one block's answer; it returns why it was skipped, or "".
func (s *solana) block(slot int64, c call) string {
	var re *RPCError
	switch {
	case errors.As(c.Err, &re) && solanaNoBlock[re.Code]:
		return fmt.Sprintf("slot %d: no block (%s)", slot, re.Message)
	case c.Err != nil:
		return fmt.Sprintf("slot %d: %v", slot, c.Err)
	case isNull(c.Result):
		return fmt.Sprintf("slot %d: the node answered null", slot)
	}
	var b solBlock
	if err := json.Unmarshal(c.Result, &b); err != nil {
		return fmt.Sprintf("slot %d: not a block (%v)", slot, err)
	}
	s.slots.add(strconv.FormatInt(slot, 10))
	for _, t := range b.Transactions {
		if len(t.Transaction.Signatures) > 0 {
			s.sigs.add(t.Transaction.Signatures[0])
		}
		keys := t.Transaction.Message.AccountKeys
		prog := map[int]bool{}
		for _, in := range t.Transaction.Message.Instructions {
			if in.ProgramIDIndex >= 0 && in.ProgramIDIndex < len(keys) {
				prog[in.ProgramIDIndex] = true
				s.progrs.add(keys[in.ProgramIDIndex])
			}
		}
		for i, k := range keys {
			if !prog[i] {
				s.accts.add(k)
			}
		}
	}
	return ""
}
