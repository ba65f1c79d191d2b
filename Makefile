GO ?= go
BIN := bin/lockbench

.PHONY: all deps build run test bench vet fmt clean

all: build

deps:
	@scripts/deps.sh

build:
	$(GO) build -o $(BIN) ./cmd/lockbench

# The main job on local, self-started servers: every strategy on 5 masters.
run: deps build
	$(BIN) run --mux sequential --workers 1 --duration 5s --warmup 1s -q
	$(BIN) run --mux fanout --workers 1 --duration 5s --warmup 1s -q

test: deps
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) test -race -count=1 -timeout 20m ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
