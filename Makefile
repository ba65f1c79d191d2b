GO ?= go
BIN := bin/lockbench

.PHONY: all deps deps-all build run test test-unit fuzz bench vet fmt clean

all: build

# deps: redis-server and redis-benchmark, all `make run` needs. deps-all:
# also zookeeper, postgresql, redis-sentinel, a C compiler and chromium, for
# the test suite. Neither touches a service it did not install (scripts/deps.sh).
deps:
	@scripts/deps.sh

deps-all:
	@scripts/deps.sh --all

# -buildvcs=auto: some machines set GOFLAGS=-buildvcs=false; --version
# should still name the revision when the tree is a git checkout.
build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/lockbench

# The main job on local, self-started servers: both clients × every strategy
# × {uncontended, contended} on 5 masters, one table, ranked answers and one
# JSON. 16 cells × 20 interleaved rounds × (50 ms + 125 ms) plus each
# cell's set-up: 1 m 17 s of measuring on the 2-core machine at load 1.1
# (1 m 26 s with the build). Progress (cells done, time left) on stderr.
run: deps build
	$(BIN) compare --repeat 20 --duration 125ms --warmup 50ms --json compare.json

# GORACE atexit_sleep_ms: a -race binary sleeps 1 s (the default) before it
# exits, so late reports of goroutines still running can print; every test
# binary (~35) and every re-executed etcd member paid it. 100 ms keeps a
# window for those reports. A GORACE of your own is used as it is.
export GORACE ?= atexit_sleep_ms=100

# -p 4: four packages' tests at once on any machine. Most real-server tests
# wait (servers starting, leases lapsing, timed faults); those that drive
# servers flat out take one of the machine's CPU slots (internal/testenv/slow.CPU)
# whatever package they are in. TESTFLAGS="-p 2" overrides it.

# -trimpath: no checkout path in what is compiled, so a fresh clone (CI's,
# or any other directory) reuses the build cache of earlier ones instead of
# compiling every package again (~2 min of a 2-core machine).
#
# go list -export compiles every package and test package (race build) before
# any test starts: on a cold cache go test otherwise compiles the later
# packages while the earlier ones' timed tests run, and on 2 cores that
# starved them (a ZooKeeper kill, a release timing out, an open loop at a
# third of its rate). With a warm cache the step takes ~5 s.
test: deps-all
	$(GO) vet -trimpath ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) list -e -export -deps -test -race -trimpath ./... >/dev/null
	$(GO) test -race -count=1 -timeout 20m -trimpath -p 4 $(TESTFLAGS) ./...
	@$(MAKE) --no-print-directory fuzz

# The parsers users feed text to (masters, fault specs, thresholds,
# distances), fuzzed briefly; their seeds and any input that once failed
# (testdata/fuzz) also run as plain tests above. A count of executions,
# not a duration: with a duration, Go 1.26's fuzz coordinator can report
# "context deadline exceeded" at its deadline with no failing input
# (golang/go#75804, fixed in 1.27). FUZZTIME=1m or 1000000x for longer.
FUZZ := drivers/redisconn:FuzzParse compose/faults:FuzzParse results/gate:FuzzParseThreshold compose/delayline:FuzzParseDistance
FUZZTIME ?= 20000x
fuzz:
	@for t in $(FUZZ); do $(GO) test -trimpath -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) ./$${t%%:*} || exit 1; done

# The unit tier: -short tests only, no server, no deps to install; seconds
# on a warm build cache. LOCKBENCH_NO_SERVERS makes every server start fail
# (compose refuses it), so a test that would start one fails here instead of
# slowing the tier down; such a test calls testenv.Servers and is skipped.
# Most -short tests wait on a fake service's TTLs rather than compute:
# -parallel 4 lets those waits overlap on a 2-core machine.
# An example's output cannot be skipped from inside it: the examples that
# start servers are named here (the refusal above finds any that is not).
UNIT_SKIP := ^(ExampleLab_Measure|ExampleRun)$$
test-unit:
	LOCKBENCH_NO_SERVERS=1 $(GO) test -short -count=1 -trimpath -parallel 4 -skip '$(UNIT_SKIP)' $(TESTFLAGS) ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
