SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.ONESHELL:
.DELETE_ON_ERROR:
.DEFAULT_GOAL := help
MAKEFLAGS += --warn-undefined-variables --no-builtin-rules

# Everything the project needs is installed by these files into .venv/ and
# .bin/, at pinned versions: Python packages from PyPI, buf from buf-bin,
# protoc from grpcio-tools, protoc-gen-go and Go modules through `go`; the
# project's own protoc plugin, protoc-gen-taskspec-go, is built from tools/protoc-gen-taskspec-go.
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
BUF := $(VENV)/bin/buf
BIN := $(CURDIR)/.bin
PROTOC_GEN_GO_VERSION := v1.36.12
PROTOC_GEN_GO := $(BIN)/protoc-gen-go
PROTOC_GEN_TASKSPEC_GO := $(BIN)/protoc-gen-taskspec-go
CONFORM := $(BIN)/taskspec-conform
CONFORM_DIR := tests/conformance/go
GOLIB_DIR := go
# The gRPC half of the Go library, a module of its own (go/taskspecgrpc), so
# that the core module links no gRPC; and the repository's protoc plugin, a
# tool of the repository, outside the modules a service fetches.
GRPCLIB_DIR := go/taskspecgrpc
PLUGIN_DIR := tools/protoc-gen-taskspec-go
# Every Go module of the repository, joined by go.work for development.
GO_MODULES := gen/go $(GOLIB_DIR) $(GRPCLIB_DIR) $(PLUGIN_DIR) tests/conformance/go tests/conformance/grpc tests/gomodule
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BIN)/staticcheck
# The short fuzz run of the Go library in `make test`, as a count of inputs
# rather than a time, so that every machine does the same work.
GO_FUZZ_RUNS ?= 2000
BASELINE := release/taskspec-v1.binpb
GENERATED_PY := python/taskspec/v1/taskspec_pb2.py python/taskspec/v1/taskspec_pb2.pyi \
	python/taskspec/v1/problems_pb2.py python/taskspec/v1/problems_pb2.pyi \
	python/taskspec/v1/options_pb2.py python/taskspec/v1/options_pb2.pyi \
	python/taskspec/v1/generator_service_pb2.py python/taskspec/v1/generator_service_pb2.pyi \
	python/taskspec/v1/generator_service_pb2_grpc.py
GENERATED_GO := gen/go/taskspec/v1/taskspec.pb.go gen/go/taskspec/v1/options.pb.go \
	gen/go/taskspec/v1/problems.pb.go \
	gen/go/taskspec/v1/generator_service.pb.go \
	go/internal/eval/eval.go go/contract_gen.go go/mirror_gen.go \
	go/internal/walk/walk_gen.go go/codes_gen.go go/internal/catalogue/forms_gen.go go/taskspecgrpc/words_gen.go go/taskspecgrpc/generator_service_grpc.pb.go
SCHEMA_FILES := schema/taskspec.v1.schema.json python/taskspec/taskspec.v1.schema.json
HAVE_GO := $(shell command -v go >/dev/null 2>&1 && echo yes)
HAVE_NPM := $(shell command -v npm >/dev/null 2>&1 && echo yes)
# yaml-language-server, which tests/test_editor.py drives as editors do, from
# npm at the version tools/editor/package-lock.json pins.
EDITOR_TOOLS := tools/editor
EDITOR_STAMP := $(EDITOR_TOOLS)/node_modules/.stamp

.PHONY: help
help: ## Show this help
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  \033[36m%-18s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(VENV)/.stamp: pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip==25.3
	$(VPY) -m pip install --quiet -r requirements-dev.txt
	$(VPY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

.PHONY: venv
venv: $(VENV)/.stamp ## Create the pinned virtualenv and install the package (editable)

$(PROTOC_GEN_GO):
	GOBIN=$(BIN) go install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)

# Built from source. It reads the contract options through the descriptors
# of options.proto in each request, never through the stubs that the same
# buf generate run regenerates, so that generation works from any state of
# the proto and the options (it bootstraps itself).
$(PROTOC_GEN_TASKSPEC_GO): $(shell find $(PLUGIN_DIR) -name '*.go' -o -name go.mod -o -name go.sum 2>/dev/null)
	cd $(PLUGIN_DIR) && go build -o $(PROTOC_GEN_TASKSPEC_GO) .

$(STATICCHECK):
	GOBIN=$(BIN) go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

$(CONFORM): go.work $(shell find $(CONFORM_DIR) gen/go $(GOLIB_DIR) -name '*.go' -o -name go.mod -o -name go.sum 2>/dev/null)
	cd $(CONFORM_DIR) && go build -o $(CONFORM) .

.PHONY: conform
conform: $(CONFORM) ## Build the Go conformance consumer into .bin/

GRPC_PEER := $(BIN)/taskspec-grpc-peer
GRPC_PEER_DIR := tests/conformance/grpc

$(GRPC_PEER): go.work $(shell find $(GRPC_PEER_DIR) gen/go $(GOLIB_DIR) -name '*.go' -o -name go.mod -o -name go.sum 2>/dev/null)
	cd $(GRPC_PEER_DIR) && go build -o $(GRPC_PEER) .

.PHONY: grpc-peer
grpc-peer: $(GRPC_PEER) ## Build the Go end of the cross-language GeneratorService tests into .bin/

$(EDITOR_STAMP): $(EDITOR_TOOLS)/package.json $(EDITOR_TOOLS)/package-lock.json
	(cd $(EDITOR_TOOLS) && npm ci --ignore-scripts --no-audit --no-fund)
	touch $@

.PHONY: editor-tools
editor-tools: $(EDITOR_STAMP) ## Install the pinned yaml-language-server (npm ci) that the editor tests drive

.PHONY: problems
problems: venv ## Record the shared problem table (tests/contract/problems.json) from its cases
	$(VPY) -m tests.contract.problem_cases
	$(VPY) -m scripts.gen_libyaml_events

.PHONY: vectors
vectors: venv conform ## Regenerate the conformance vectors (Go consumer, seeded), the Go library's rule cases, the shared problem table and libyaml's events for them
	$(VPY) -m tests.conformance.generate
	$(VPY) -m tests.conformance.rule_cases
	$(VPY) -m tests.contract.problem_cases
	$(VPY) -m scripts.gen_libyaml_events

.PHONY: generate
generate: venv $(PROTOC_GEN_GO) $(PROTOC_GEN_TASKSPEC_GO) ## Generate everything proto/ decides: stubs, the Go contract code, the JSON Schema and the Go rule cases
	$(BUF) generate
	$(VPY) scripts/gen_stub_literals.py python
	$(VPY) scripts/gen_enums.py
	$(VPY) -m scripts.gen_codes_table
	$(VPY) -m scripts.gen_code_names
	$(VPY) -m scripts.gen_forms
	$(VPY) scripts/gen_schema.py --buf $(BUF)
	$(VPY) -m tests.conformance.rule_cases

# Without Go, only the Python stubs can be regenerated and checked.
CHECKED_GEN := $(GENERATED_PY) $(if $(HAVE_GO),$(GENERATED_GO))
PY_ONLY_TEMPLATE := {"version":"v2","plugins":[{"protoc_builtin":"python","protoc_path":"tools/protoc","out":"python"},{"protoc_builtin":"pyi","protoc_path":"tools/protoc","out":"python"},{"local":"tools/protoc-gen-grpc_python","out":"python"}]}

.PHONY: checkgenerate
checkgenerate: venv $(if $(HAVE_GO),$(PROTOC_GEN_GO) $(PROTOC_GEN_TASKSPEC_GO)) ## Fail if generated code differs from what proto/ generates
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT
	$(BUF) generate --output "$$tmp" $(if $(HAVE_GO),,--template '$(PY_ONLY_TEMPLATE)')
	$(VPY) scripts/gen_stub_literals.py "$$tmp/python"
	status=0
	for f in $(CHECKED_GEN); do
		if ! cmp -s "$$tmp/$$f" "$$f"; then
			echo "generated file out of date: $$f (run 'make generate')" >&2
			diff -u "$$f" "$$tmp/$$f" | head -40 >&2 || true
			status=1
		fi
	done
	$(VPY) scripts/gen_enums.py --check || status=1
	$(VPY) -m scripts.gen_codes_table --check || status=1
	$(VPY) -m scripts.gen_code_names --check || status=1
	$(VPY) -m scripts.gen_forms --check || status=1
	$(VPY) -m scripts.gen_libyaml_events --check || status=1
	extra=$$(cd "$$tmp" && find . -type f | sed 's|^\./||' | sort)
	expected=$$(printf '%s\n' $(CHECKED_GEN) | sort)
	if [ "$$extra" != "$$expected" ]; then
		echo "generation produced unexpected files:" >&2; echo "$$extra" >&2; status=1
	fi
	exit $$status

.PHONY: schema
schema: venv ## Generate the JSON Schema (schema/ and its packaged copy) from proto/
	$(VPY) scripts/gen_schema.py --buf $(BUF)

.PHONY: checkschema
checkschema: venv ## Fail if the committed JSON Schema differs from what proto/ generates
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT
	$(VPY) scripts/gen_schema.py --buf $(BUF) --out "$$tmp"
	status=0
	for f in $(SCHEMA_FILES); do
		if ! cmp -s "$$tmp/$$f" "$$f"; then
			echo "JSON Schema out of date: $$f (run 'make schema')" >&2
			diff -u "$$f" "$$tmp/$$f" | head -40 >&2 || true
			status=1
		fi
	done
	exit $$status

.PHONY: format
format: venv ## Format proto, Python and Go sources in place
	$(BUF) format -w
	$(VENV)/bin/ruff format python tests scripts
	$(VENV)/bin/ruff check --fix python tests scripts
	gofmt -w $(GO_MODULES)

# The most message fragments (18 characters or more) that may stand written
# out in both the Go library and the Python package rather than rendered
# from the catalogue (scripts/copied_fragments.py). It only goes down: lower
# it as sites are converted; the words of the Go read path are next.
COPIED_FRAGMENTS_CEILING := 18

.PHONY: lint
lint: venv $(if $(HAVE_GO),$(STATICCHECK)) ## buf lint, buf format check, ruff, mypy --strict, import-linter (the layers), gofmt, go vet and staticcheck
	$(BUF) lint
	$(BUF) format --diff --exit-code
	$(VENV)/bin/ruff check python tests scripts
	$(VENV)/bin/ruff format --check python tests scripts
	$(VENV)/bin/mypy python/taskspec tests scripts
	$(VENV)/bin/lint-imports --no-cache
	$(VPY) -m scripts.copied_fragments --ceiling $(COPIED_FRAGMENTS_CEILING)
ifeq ($(HAVE_GO),yes)
	test -z "$$(gofmt -l $(GO_MODULES))" || { gofmt -l $(GO_MODULES); exit 1; }
	for m in $(GO_MODULES); do (cd $$m && go vet ./...); done
	for m in $(GOLIB_DIR) $(GRPCLIB_DIR) $(PLUGIN_DIR); do (cd $$m && $(STATICCHECK) ./...); done
endif

.PHONY: breaking
breaking: venv ## Check proto/ against the released v1 baseline image: buf breaking, then the contract options
	$(BUF) breaking --against $(BASELINE)
	$(VPY) scripts/check_contract.py --buf $(BUF) --against $(BASELINE)

# go mod tidy in each module, outside the workspace: the modules that
# require this repository's other modules at the release's version are
# pointed at the working tree by replace directives for the run and
# dropped after it, so each go.mod and go.sum is complete on its own.
OUR_GO_MODULES := gen/go=gen/go go=go go/taskspecgrpc=go/taskspecgrpc

.PHONY: go-tidy
go-tidy: ## go mod tidy every Go module of the repository
	for m in $(GO_MODULES); do
		rel=$$(realpath --relative-to=$$m .)
		edits=(); drops=()
		for pair in $(OUR_GO_MODULES); do
			path=github.com/taskspec/taskspec/$${pair%%=*}; dir=$${pair#*=}
			if [ "$$dir" != "$$m" ]; then edits+=("-replace=$$path=$$rel/$$dir"); drops+=("-dropreplace=$$path"); fi
		done
		(cd $$m && go mod edit "$${edits[@]}" && GOWORK=off go mod tidy; status=$$?; go mod edit "$${drops[@]}"; exit $$status)
	done

.PHONY: release-baseline
release-baseline: venv ## Cut a new contract version: record proto/ as the baseline (a breaking change needs the schema version bumped; see CONTRIBUTING.md)
	$(VPY) scripts/check_contract.py --buf $(BUF) --against $(BASELINE) --release
	$(BUF) build --exclude-source-info -o $(BASELINE)

.PHONY: release
release: venv ## Cut release VERSION (X.Y.Z): write it everywhere (then commit), or tag the commit that names it
	$(VPY) scripts/release.py $(VERSION)

.PHONY: gotest
gotest: ## Run the Go library's tests (and a short fuzz run) and the Go conformance consumer's
ifeq ($(HAVE_GO),yes)
	(cd $(GOLIB_DIR) && go test ./...)
	(cd $(GRPCLIB_DIR) && go test ./...)
	(cd $(PLUGIN_DIR) && go test ./...)
	(cd tests/gomodule && go test ./...)
	(cd $(GOLIB_DIR) && go test -run='^$$' -fuzz='^FuzzParseYAML$$' -fuzztime=$(GO_FUZZ_RUNS)x .)
	(cd $(GOLIB_DIR) && go test -run='^$$' -fuzz='^FuzzMarshalYAML$$' -fuzztime=$(GO_FUZZ_RUNS)x .)
	(cd $(GOLIB_DIR) && go test -run='^$$' -fuzz='^FuzzMarshalSameAsRef$$' -fuzztime=$(GO_FUZZ_RUNS)x .)
	(cd $(GOLIB_DIR) && go test -run='^$$' -fuzz='^FuzzParseJSON$$' -fuzztime=$(GO_FUZZ_RUNS)x .)
	(cd $(GOLIB_DIR) && go test -run='^$$' -fuzz='^FuzzSizeBound$$' -fuzztime=$(GO_FUZZ_RUNS)x .)
	(cd $(CONFORM_DIR) && go test ./...)
else
	@echo "go not found: skipping Go tests"
endif

.PHONY: test
test: ## Set up, then run every check and the whole test suite, and print how long it took
	@started=$$(date +%s)
	$(MAKE) --no-print-directory test-all
	echo "make test: passed in $$(( $$(date +%s) - started )) s"

# The Python suites run on PYTEST_JOBS processes (pytest-xdist; "auto" is
# one per core), a test file to a process, so that a module's fixtures (a Go
# server, a built hook) start once.
PYTEST_JOBS ?= auto
PYTEST_PARALLEL = -n $(PYTEST_JOBS) --dist loadfile

.PHONY: test-all
test-all: venv lint breaking checkgenerate checkschema gotest $(if $(HAVE_GO),conform grpc-peer) $(if $(HAVE_NPM),editor-tools)
	$(VPY) -m pytest -q $(PYTEST_PARALLEL)

.PHONY: test-procedures
test-procedures: venv ## Make CONTRIBUTING.md's three contract changes in scratch copies and run make generate and make test there
	TASKSPEC_PROCEDURES=1 $(VPY) -m pytest -q -p no:cacheprovider tests/test_procedures.py

# The Python versions the package declares besides the venv's own. Each one
# installed on this machine gets a venv of its own and runs the Python tests;
# each one that is not is named as skipped.
OTHER_PYTHONS := 3.12 3.13

.PHONY: test-pythons
test-pythons: $(if $(HAVE_NPM),editor-tools) ## Run the Python tests on every other declared Python version installed here
	@for v in $(OTHER_PYTHONS); do
		py=""
		# A python3.X on PATH that runs, or one that pyenv installed but did not select.
		for cand in "python$$v" $$(ls -d "$${PYENV_ROOT:-$$HOME/.pyenv}"/versions/$$v*/bin/python$$v 2>/dev/null); do
			if "$$cand" -c "import sys; assert sys.version_info[:2] == tuple(map(int, '$$v'.split('.')))" >/dev/null 2>&1; then
				py="$$cand"; break
			fi
		done
		if [ -z "$$py" ]; then
			echo "python$$v: not installed on this machine, skipped"; continue
		fi
		echo "python$$v: running the Python tests with $$py"
		"$$py" -m venv ".venv-$$v"
		".venv-$$v/bin/python" -m pip install --quiet --upgrade pip==25.3
		".venv-$$v/bin/python" -m pip install --quiet -r requirements-dev.txt
		".venv-$$v/bin/python" -m pip install --quiet --no-deps --no-build-isolation -e .
		".venv-$$v/bin/python" -m pytest -q -p no:cacheprovider $(PYTEST_PARALLEL)
	done

# The compiled build: the YAML bridge's hot modules (setup.py's COMPILED)
# compiled with mypyc into a venv of its own. The package is installed, not
# editable, so the extensions go into that venv's site-packages and never
# next to the sources, where the pure-Python venv would import them.
VENV_COMPILED := $(VENV)-compiled
VPY_COMPILED := $(VENV_COMPILED)/bin/python
COMPILED_SOURCES := $(shell find python/taskspec -name '*.py' -o -name '*.pyi' -o -name '*.json')

$(VENV_COMPILED)/.deps-stamp: pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV_COMPILED)
	$(VPY_COMPILED) -m pip install --quiet --upgrade pip==25.3
	$(VPY_COMPILED) -m pip install --quiet -r requirements-dev.txt
	touch $@

$(VENV_COMPILED)/.stamp: $(VENV_COMPILED)/.deps-stamp setup.py $(COMPILED_SOURCES)
	rm -rf build/compiled
	TASKSPEC_COMPILE=1 $(VPY_COMPILED) -m pip install --quiet --no-deps --no-build-isolation \
		--no-cache-dir --force-reinstall .
	(cd / && $(CURDIR)/$(VPY_COMPILED) -c 'import taskspec; assert taskspec.__compiled__ is True')
	touch $@

.PHONY: compiled
compiled: $(VENV_COMPILED)/.stamp ## Build the compiled variant (mypyc; needs a C compiler) into .venv-compiled/

.PHONY: test-compiled
test-compiled: compiled $(if $(HAVE_GO),conform) $(if $(HAVE_NPM),editor-tools) ## Run the Python test suite against the compiled variant
	TASKSPEC_EXPECT_COMPILED=1 $(VPY_COMPILED) -m pytest -q -p no:cacheprovider $(PYTEST_PARALLEL)

# The release artefacts, into dist/: the sdist, then both wheels built from
# that sdist (so that a missing file in it fails here, not on a user's
# install), each in an isolated build from pyproject.toml's pinned build
# requirements. The pure wheel (TASKSPEC_COMPILE=0) is py3-none-any; the
# compiled one (TASKSPEC_COMPILE=1, so that a failed compile fails the
# target rather than shipping a pure wheel under a platform tag) is for this
# venv's Python and is repaired by auditwheel to a manylinux tag. Here,
# Debian 12's glibc, its extensions need only GLIBC_2.14 symbols and
# auditwheel tags it manylinux_2_17 (manylinux2014); it is built with this
# machine's compiler, not in a PyPA manylinux image. The stamp is in dist/,
# so that removing dist/ builds it again; `twine upload dist/*` skips it.
DIST := dist
DIST_BUILD := build/dist
VERSION := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' pyproject.toml)
DIST_SOURCES := setup.py pyproject.toml MANIFEST.in README.md LICENSE $(COMPILED_SOURCES) \
	$(shell find proto examples schema -type f)

$(DIST)/.stamp: $(VENV)/.stamp $(DIST_SOURCES)
	rm -rf $(DIST) $(DIST_BUILD)
	mkdir -p $(DIST) $(DIST_BUILD)
	$(VPY) -m build --sdist --outdir $(DIST) .
	tar -xzf $(DIST)/taskspec-$(VERSION).tar.gz -C $(DIST_BUILD)
	src=$(DIST_BUILD)/taskspec-$(VERSION)
	TASKSPEC_COMPILE=0 $(VPY) -m build --wheel --outdir $(DIST) "$$src"
	TASKSPEC_COMPILE=1 $(VPY) -m build --wheel --outdir $(DIST_BUILD) "$$src"
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/auditwheel repair --wheel-dir $(DIST) \
		$(DIST_BUILD)/taskspec-$(VERSION)-cp*-linux_*.whl
	ls -l $(DIST)
	touch $@

.PHONY: dist
dist: $(DIST)/.stamp ## Build the sdist, the pure wheel and the compiled (mypyc, manylinux) wheel into dist/

# The compiled wheel as a user gets it: installed with pip into a venv of its
# own, outside the repository, with nothing but its dependencies and pytest
# (at requirements-dev.txt's pins), with the grpc extra. The checks run
# there first, then the tests that need only the installed package: the
# conformance vectors, the checks of which build runs, the version's label,
# and the documentation's Python examples, each run from an empty directory
# outside the repository, as a user runs them after pip install.
# PYTHONPATH is unset and pytest's pythonpath emptied so that python/ cannot
# be imported in its place; TASKSPEC_EXPECT_INSTALLED makes the suite check
# that too.
WHEEL_TESTS := tests/test_conformance.py tests/test_vectors.py tests/test_compiled.py \
	tests/test_cli.py::test_version_comes_from_the_package_metadata_and_names_the_build \
	tests/test_readme.py

.PHONY: test-wheel
test-wheel: $(DIST)/.stamp $(if $(HAVE_GO),conform) ## Install the compiled wheel from make dist into a fresh venv outside the repository and run the conformance tests and the documentation's examples on it
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT
	wheel=$$(ls $(DIST)/taskspec-$(VERSION)-cp*-manylinux*.whl)
	$(PYTHON) -m venv "$$tmp/venv"
	py="$$tmp/venv/bin/python"
	"$$py" -m pip install --quiet --upgrade pip==25.3
	"$$py" -m pip install --quiet -c requirements-dev.txt "$$wheel[grpc]" pytest
	(cd "$$tmp" && env -u PYTHONPATH "$$py" -c 'import sys, taskspec
	assert taskspec.__compiled__ is True, "the installed wheel is not compiled"
	assert taskspec.__file__.startswith(sys.prefix + "/"), taskspec.__file__
	print("installed:", taskspec.__file__)')
	version=$$("$$tmp/venv/bin/taskspec" --version); echo "$$version"
	[[ "$$version" == "taskspec $(VERSION) (compiled, mypyc)" ]]
	env -u PYTHONPATH TASKSPEC_EXPECT_COMPILED=1 TASKSPEC_EXPECT_INSTALLED=1 \
		"$$py" -m pytest -q -p no:cacheprovider -o pythonpath= $(WHEEL_TESTS)

.PHONY: run
run: venv ## Set up, then validate and format-check examples/ and show one parsed example
	$(VENV)/bin/taskspec validate examples
	$(VENV)/bin/taskspec fmt --check examples
	@echo "--- examples/go.taskspec.yaml, parsed and re-marshalled:"
	$(VENV)/bin/taskspec show examples/go.taskspec.yaml

FUZZ_SECONDS ?= 600
# FUZZ_SEED fixes libFuzzer's random seed (and Python's hash seed, which
# orders what the instrumented code covers), and FUZZ_RUNS caps the inputs:
# with both, a run from the seeds alone tries the same inputs on every
# machine, so CI checks a known set instead of whatever it happens to find
# that day. Left at 0, each run explores new ground, as a long run should.
FUZZ_SEED ?= 0
FUZZ_RUNS ?= -1
FUZZ_FLAGS = -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -seed=$(FUZZ_SEED) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_ENV = $(if $(filter-out 0,$(FUZZ_SEED)),PYTHONHASHSEED=$(FUZZ_SEED))

$(VENV)/.fuzz-stamp: $(VENV)/.stamp requirements-fuzz.txt
	$(VPY) -m pip install --quiet -r requirements-fuzz.txt
	touch $@

.PHONY: fuzz
fuzz: venv $(VENV)/.fuzz-stamp ## Fuzz parse_task_spec and the round trip (atheris) for FUZZ_SECONDS (FUZZ_SEED, FUZZ_RUNS: see above), seeded from the vectors
	$(FUZZ_ENV) $(VPY) -m tests.fuzz.fuzz_parse $(FUZZ_FLAGS)

.PHONY: hostile
hostile: venv conform ## Run generated hostile documents through both libraries, one process each: outcome, time and peak memory
	$(VPY) scripts/hostile.py

.PHONY: fuzz-diff
fuzz-diff: venv conform $(VENV)/.fuzz-stamp ## Differential fuzzing: the Python and Go libraries must agree on every input, for FUZZ_SECONDS (FUZZ_SEED, FUZZ_RUNS)
	$(FUZZ_ENV) $(VPY) -m tests.fuzz.fuzz_diff $(FUZZ_FLAGS)

$(VENV)/.bench-stamp: $(VENV)/.stamp requirements-bench.txt
	$(VPY) -m pip install --quiet -r requirements-bench.txt
	touch $@

.PHONY: bench
bench: venv conform compiled $(VENV)/.bench-stamp ## Benchmark parse/marshal against Go and two PyYAML peers, start-up and memory, then bulk validation
	$(VPY) -m scripts.bench --json build/bench.json
	$(VPY) -m scripts.plot_bench build/bench.json docs/benchmarks.png
	@echo "figure: docs/benchmarks.png"
	$(MAKE) --no-print-directory bench-keys
	$(MAKE) --no-print-directory bench-validate

.PHONY: bench-keys
bench-keys: venv conform compiled ## Parse and marshal of documents with many odd signal keys, compiled build against Go: medians of alternating rounds
	$(VPY) -m scripts.bench_keys --rounds 11

.PHONY: bench-validate
bench-validate: venv ## Time `taskspec validate` on 10,000 generated sidecars, jobs 1 vs all CPUs
	$(VPY) scripts/bench_validate.py

.PHONY: bench-lsp
bench-lsp: venv ## Time `taskspec lsp`: start-up, and diagnostics after a change to a 64 KiB sidecar
	$(VPY) -m scripts.bench_lsp

.PHONY: clean
clean: ## Remove the venvs, local binaries, the editor tools, build/, dist/ and caches
	rm -rf $(VENV) $(VENV)-3.* $(VENV_COMPILED) build $(DIST) $(BIN) .mypy_cache .ruff_cache .pytest_cache .hypothesis
	rm -rf $(EDITOR_TOOLS)/node_modules
