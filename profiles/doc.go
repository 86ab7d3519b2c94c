// Package profiles loads rpcstress profiles: TOML files that say what to send (a weighted mix of
// JSON-RPC calls or raw bodies), where (url, headers), how hard (connections, open or closed
// loop) and on what schedule (a list of [[stage]] tables or a [ramp]).
//
// Load reads a file, checks every key and value, and compiles the result into an *engine.Config
// that the engine runs as is: bodies are pre-rendered, ramps are expanded into stages, ${VAR}
// references are resolved from the environment. A profile with problems yields an *Error that
// lists all of them at once, each naming file:line, the field (stage[2].rate, request[1].weight;
// indices count from 1, as a reader counts the tables in the file), what is wrong and how to fix
// it.
//
// Requests can vary per send: template calls such as {{randInt 1 100}}, {{seq}} or
// {{line "accounts.txt"}} in params strings and raw bodies are compiled at load into an
// engine.Template (template*.go), so the engine renders them without parsing or allocating.
// A request can be a JSON-RPC batch (batch.go), and a vegeta target file can supply requests
// with their own method, path and headers (targets*.go, FromTargets for a run without a
// profile). insecure and ca_file set how https targets are verified (tls.go).
//
// Secrets never leave through this package's views: Redacted and Describe hide the values of
// secret headers (by name, by ${VAR} use, or listed in `secret`), URL userinfo and query strings.
//
// Several targets side by side: [[target]] tables (sidebyside.go) or --url NAME=URL
// (TargetURLs, applied by Apply) give Config.Targets; compare_answers and the compare_* keys
// (compare.go) give Config.CompareAnswers and Config.Answers.
//
// The bundled profiles (getBalance.toml, getBlocks.toml, eth.toml, ratelimit-ramp.toml,
// side-by-side.toml, demo.toml) are embedded; see BundledFS and LoadBundled.
package profiles
