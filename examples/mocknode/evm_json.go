package mocknode

// How the fake EVM chain's blocks, transactions, receipts and logs are written: the fields
// geth writes, in its order, so clients that decode them strictly (ethers, web3, viem) can.

const (
	zeroHex64 = "0000000000000000000000000000000000000000000000000000000000000000"
	fullHex64 = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
	// A bloom filter is 256 bytes. The node computes none (that needs keccak256 of every log);
	// a block or receipt with logs answers all ones instead, which a bloom allows (every
	// question answers "maybe"), so a client that trusts blooms still asks for the logs.
	bloomZero = `"0x` + zeroHex64 + zeroHex64 + zeroHex64 + zeroHex64 + zeroHex64 + zeroHex64 + zeroHex64 + zeroHex64 + `"`
	bloomFull = `"0x` + fullHex64 + fullHex64 + fullHex64 + fullHex64 + fullHex64 + fullHex64 + fullHex64 + fullHex64 + `"`
	// sha3Uncles of a block without uncles (every block since the merge): keccak256 of an
	// empty RLP list.
	emptyUncles = `"0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347"`
)

func appendBloom(dst []byte, logs bool) []byte {
	if logs {
		return append(dst, bloomFull...)
	}
	return append(dst, bloomZero...)
}

// appendEthBlock writes block num: transaction hashes, or whole transactions when full.
func (n *Node) appendEthBlock(dst []byte, num uint64, full bool) []byte {
	count := ethTxCount(num)
	dst = appendEthHeader(append(dst, '{'), num, n.ethTime(num))
	dst = append(dst, `,"transactions":[`...)
	for i := range count {
		if i > 0 {
			dst = append(dst, ',')
		}
		if full {
			dst = appendEthTx(dst, ethTxAt(num, i))
		} else {
			dst = appendHash32(dst, dEthTx, num<<8|i)
		}
	}
	return append(dst, `],"uncles":[]}`...)
}

// appendEthHeader writes block num's header fields, without braces: what a block and a newHeads
// notification share; ts is its timestamp (Node.ethTime).
func appendEthHeader(dst []byte, num, ts uint64) []byte {
	count := ethTxCount(num)
	gas, logs := ethBlockGas(num)
	dst = append(dst, `"number":`...)
	dst = appendHexQuantity(dst, num)
	dst = append(dst, `,"hash":`...)
	dst = appendHash32(dst, dEthBlock, num)
	dst = append(dst, `,"parentHash":`...)
	if num == 0 {
		dst = append(dst, `"0x`+zeroHex64+`"`...)
	} else {
		dst = appendHash32(dst, dEthBlock, num-1)
	}
	dst = append(dst, `,"nonce":"0x0000000000000000","sha3Uncles":`+emptyUncles+`,"logsBloom":`...)
	dst = appendBloom(dst, logs > 0)
	dst = append(dst, `,"transactionsRoot":`...)
	dst = appendHash32(dst, dEthTxRoot, num)
	dst = append(dst, `,"stateRoot":`...)
	dst = appendHash32(dst, dEthRoot, num)
	dst = append(dst, `,"receiptsRoot":`...)
	dst = appendHash32(dst, dEthReceiptRoot, num)
	dst = append(dst, `,"miner":`...)
	dst = appendEthAddress(dst, dEthWallet, num%ethWallets)
	dst = append(dst, `,"difficulty":"0x0","extraData":"0x","size":`...)
	dst = appendHexQuantity(dst, 600+120*count) // about what such a block weighs in RLP
	dst = append(dst, `,"gasLimit":`...)
	dst = appendHexQuantity(dst, ethGasLimit)
	dst = append(dst, `,"gasUsed":`...)
	dst = appendHexQuantity(dst, gas)
	dst = append(dst, `,"timestamp":`...)
	dst = appendHexQuantity(dst, ts)
	dst = append(dst, `,"baseFeePerGas":`...)
	return appendHexQuantity(dst, ethBaseFee(num))
}

// appendEthTx writes a transaction as eth_getTransactionByHash answers it (type 2, EIP-1559).
func appendEthTx(dst []byte, tx ethTx) []byte {
	key := tx.block<<8 | tx.index
	base := ethBaseFee(tx.block)
	dst = append(dst, `{"blockHash":`...)
	dst = appendHash32(dst, dEthBlock, tx.block)
	dst = append(dst, `,"blockNumber":`...)
	dst = appendHexQuantity(dst, tx.block)
	dst = append(dst, ',')
	dst = appendFromGas(dst, tx)
	dst = append(dst, `,"gasPrice":`...)
	dst = appendHexQuantity(dst, base+tx.tip)
	dst = append(dst, `,"maxFeePerGas":`...)
	dst = appendHexQuantity(dst, 2*base+tx.tip)
	dst = append(dst, `,"maxPriorityFeePerGas":`...)
	dst = appendHexQuantity(dst, tx.tip)
	dst = append(dst, `,"hash":`...)
	dst = appendHash32(dst, dEthTx, key)
	dst = append(dst, `,"input":`...)
	dst = appendTxInput(dst, tx)
	dst = append(dst, `,"nonce":`...)
	dst = appendHexQuantity(dst, tx.nonce)
	dst = append(dst, `,"to":`...)
	dst = appendTxTo(dst, tx)
	dst = append(dst, `,"transactionIndex":`...)
	dst = appendHexQuantity(dst, tx.index)
	dst = append(dst, `,"value":`...)
	if tx.token >= 0 {
		dst = append(dst, `"0x0"`...)
	} else {
		dst = appendHexQuantity(dst, tx.amount)
	}
	parity := key & 1
	dst = append(dst, `,"type":"0x2","accessList":[],"chainId":`...)
	dst = appendHexQuantity(dst, ethChainID)
	dst = append(dst, `,"v":`...)
	dst = appendHexQuantity(dst, parity)
	dst = append(dst, `,"yParity":`...)
	dst = appendHexQuantity(dst, parity)
	dst = append(dst, `,"r":`...)
	dst = appendHash32(dst, dEthSig, key<<1)
	dst = append(dst, `,"s":`...)
	dst = appendHash32(dst, dEthSig, key<<1|1)
	return append(dst, '}')
}

// appendEthReceipt writes tx's receipt, with its Transfer log for a token call.
func appendEthReceipt(dst []byte, tx ethTx) []byte {
	var cumulative, logIndex uint64
	for i := range tx.index {
		earlier := ethTxAt(tx.block, i)
		cumulative += earlier.gasUsed()
		if earlier.token >= 0 {
			logIndex++
		}
	}
	cumulative += tx.gasUsed()
	dst = append(dst, `{"blockHash":`...)
	dst = appendHash32(dst, dEthBlock, tx.block)
	dst = append(dst, `,"blockNumber":`...)
	dst = appendHexQuantity(dst, tx.block)
	dst = append(dst, `,"contractAddress":null,"cumulativeGasUsed":`...)
	dst = appendHexQuantity(dst, cumulative)
	dst = append(dst, `,"effectiveGasPrice":`...)
	dst = appendHexQuantity(dst, ethBaseFee(tx.block)+tx.tip)
	dst = append(dst, `,"from":`...)
	dst = appendEthAddress(dst, dEthWallet, tx.from)
	dst = append(dst, `,"gasUsed":`...)
	dst = appendHexQuantity(dst, tx.gasUsed())
	dst = append(dst, `,"logs":[`...)
	if tx.token >= 0 {
		dst = appendEthLog(dst, tx, logIndex)
	}
	dst = append(dst, `],"logsBloom":`...)
	dst = appendBloom(dst, tx.token >= 0)
	dst = append(dst, `,"status":"0x1","to":`...)
	dst = appendTxTo(dst, tx)
	dst = append(dst, `,"transactionHash":`...)
	dst = appendHash32(dst, dEthTx, tx.block<<8|tx.index)
	dst = append(dst, `,"transactionIndex":`...)
	dst = appendHexQuantity(dst, tx.index)
	return append(dst, `,"type":"0x2"}`...)
}

// appendEthLog writes the Transfer log of a token call: topics as ERC-20 writes them (the
// event, then sender and recipient as 32-byte words), the amount in data.
func appendEthLog(dst []byte, tx ethTx, logIndex uint64) []byte {
	dst = append(dst, `{"address":`...)
	dst = appendEthAddress(dst, dEthToken, uint64(tx.token))
	dst = append(dst, `,"topics":["`+transferTopic+`","0x`...)
	dst = appendAddressWord(dst, dEthWallet, tx.from)
	dst = append(dst, `","0x`...)
	dst = appendAddressWord(dst, dEthWallet, tx.to)
	dst = append(dst, `"],"data":"0x`...)
	dst = appendHex64(dst, tx.amount)
	dst = append(dst, `","blockNumber":`...)
	dst = appendHexQuantity(dst, tx.block)
	dst = append(dst, `,"transactionHash":`...)
	dst = appendHash32(dst, dEthTx, tx.block<<8|tx.index)
	dst = append(dst, `,"transactionIndex":`...)
	dst = appendHexQuantity(dst, tx.index)
	dst = append(dst, `,"blockHash":`...)
	dst = appendHash32(dst, dEthBlock, tx.block)
	dst = append(dst, `,"logIndex":`...)
	dst = appendHexQuantity(dst, logIndex)
	return append(dst, `,"removed":false}`...)
}

// appendFromGas writes tx's "from" and "gas" members, which a transaction object and a call
// frame (callTracer) both write in this order.
func appendFromGas(dst []byte, tx ethTx) []byte {
	dst = append(dst, `"from":`...)
	dst = appendEthAddress(dst, dEthWallet, tx.from)
	dst = append(dst, `,"gas":`...)
	if tx.token >= 0 {
		return appendHexQuantity(dst, gasTokenLimit)
	}
	return appendHexQuantity(dst, gasTransfer)
}
