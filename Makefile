# Builds rpcstress with its version stamped; `go build` and `go run` work too (they report the
# VCS revision instead).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)

rpcstress:
	go build -ldflags "-X main.buildVersion=$(VERSION)" -o rpcstress .

test:
	go test ./...

.PHONY: rpcstress test
