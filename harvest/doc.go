// Package harvest reads recent blocks from a reference node and writes the parameters a realistic
// load needs (block numbers and hashes, transaction hashes or signatures, addresses, contracts,
// ERC-20 holders, log ranges; Solana slots, signatures, accounts, programs) as plain line files
// that profile templates read with {{line "file"}} and {{lineSeq "file"}}.
//
// Only what the node under test can serve is kept: a pruned node answers state older than its
// retention window with fast errors or empty results, which would make it look quick, so Run
// first finds the oldest block the node still serves and reads only blocks inside that window.
//
// The reference node is someone's production server: every request goes through one rate
// limiter (Options.Rate), calls travel in JSON-RPC batches where the node accepts them, and a
// node that refuses batches is asked one call at a time. A cancelled context (Ctrl-C) stops the
// reading; what was fetched is still written, and the manifest says the harvest is partial.
//
// Files are written only at the end, each whole (internal/outfile), the manifest last: a folder
// whose manifest says "complete": true holds a whole harvest, anything else is partial.
package harvest
