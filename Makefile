SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.ONESHELL:
.DELETE_ON_ERROR:
.DEFAULT_GOAL := help
MAKEFLAGS += --warn-undefined-variables --no-builtin-rules

# Everything the project needs is installed by these files into .venv/ and
# .bin/, at pinned versions: Python packages from PyPI, buf from buf-bin,
# protoc from grpcio-tools, protoc-gen-go and Go modules through `go`.
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
BUF := $(VENV)/bin/buf
BIN := $(CURDIR)/.bin
PROTOC_GEN_GO_VERSION := v1.36.12
PROTOC_GEN_GO := $(BIN)/protoc-gen-go
CONFORM := $(BIN)/taskspec-conform
CONFORM_DIR := tests/conformance/go
BASELINE := release/taskspec-v1.binpb
GENERATED_PY := python/taskspec/v1/taskspec_pb2.py python/taskspec/v1/taskspec_pb2.pyi
GENERATED_GO := gen/go/taskspec/v1/taskspec.pb.go
SCHEMA_FILES := schema/taskspec.v1.schema.json python/taskspec/taskspec.v1.schema.json
HAVE_GO := $(shell command -v go >/dev/null 2>&1 && echo yes)

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

$(CONFORM): $(shell find $(CONFORM_DIR) gen/go -name '*.go' -o -name go.mod -o -name go.sum 2>/dev/null)
	cd $(CONFORM_DIR) && go build -o $(CONFORM) .

.PHONY: conform
conform: $(CONFORM) ## Build the Go conformance consumer into .bin/

.PHONY: vectors
vectors: venv conform ## Regenerate tests/conformance/vectors/ from the Go consumer (seeded: same bytes every run)
	$(VPY) -m scripts.gen_vectors

.PHONY: generate
generate: venv $(PROTOC_GEN_GO) ## Generate Python and Go stubs from proto/
	$(BUF) generate

# Without Go, only the Python stubs can be regenerated and checked.
CHECKED_GEN := $(GENERATED_PY) $(if $(HAVE_GO),$(GENERATED_GO))
PY_ONLY_TEMPLATE := {"version":"v2","plugins":[{"protoc_builtin":"python","protoc_path":"tools/protoc","out":"python"},{"protoc_builtin":"pyi","protoc_path":"tools/protoc","out":"python"}]}

.PHONY: checkgenerate
checkgenerate: venv $(if $(HAVE_GO),$(PROTOC_GEN_GO)) ## Fail if generated code differs from what proto/ generates
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT
	$(BUF) generate --output "$$tmp" $(if $(HAVE_GO),,--template '$(PY_ONLY_TEMPLATE)')
	status=0
	for f in $(CHECKED_GEN); do
		if ! cmp -s "$$tmp/$$f" "$$f"; then
			echo "generated file out of date: $$f (run 'make generate')" >&2
			diff -u "$$f" "$$tmp/$$f" | head -40 >&2 || true
			status=1
		fi
	done
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
	gofmt -w $(CONFORM_DIR)

.PHONY: lint
lint: venv ## buf lint, buf format check, ruff, mypy --strict, gofmt and go vet
	$(BUF) lint
	$(BUF) format --diff --exit-code
	$(VENV)/bin/ruff check python tests scripts
	$(VENV)/bin/ruff format --check python tests scripts
	$(VENV)/bin/mypy python/taskspec tests scripts
ifeq ($(HAVE_GO),yes)
	test -z "$$(gofmt -l $(CONFORM_DIR))" || { gofmt -l $(CONFORM_DIR); exit 1; }
	(cd gen/go && go vet ./...)
	(cd $(CONFORM_DIR) && go vet ./...)
endif

.PHONY: breaking
breaking: venv ## Check proto/ against the released v1 baseline image
	$(BUF) breaking --against $(BASELINE)

.PHONY: release-baseline
release-baseline: venv ## Release step: record proto/ as the new breaking-change baseline
	$(BUF) build --exclude-source-info -o $(BASELINE)

.PHONY: gotest
gotest: ## Run the Go conformance consumer's own tests
ifeq ($(HAVE_GO),yes)
	cd $(CONFORM_DIR) && go test ./...
else
	@echo "go not found: skipping Go tests"
endif

.PHONY: test
test: venv lint breaking checkgenerate checkschema gotest $(if $(HAVE_GO),conform) ## Set up, then run every check and the whole test suite
	$(VPY) -m pytest -q

.PHONY: run
run: venv ## Set up, then validate and format-check examples/ and show one parsed example
	$(VENV)/bin/taskspec validate examples
	$(VENV)/bin/taskspec fmt --check examples
	@echo "--- examples/go.taskspec.yaml, parsed and re-marshalled:"
	$(VENV)/bin/taskspec show examples/go.taskspec.yaml

$(VENV)/.bench-stamp: $(VENV)/.stamp requirements-bench.txt
	$(VPY) -m pip install --quiet -r requirements-bench.txt
	touch $@

.PHONY: bench
bench: venv conform $(VENV)/.bench-stamp ## Benchmark parse/marshal against Go and naive PyYAML, then bulk validation
	$(VPY) -m scripts.bench --json build/bench.json
	$(VPY) -m scripts.plot_bench build/bench.json docs/benchmarks.png
	@echo "figure: docs/benchmarks.png"
	$(MAKE) --no-print-directory bench-validate

.PHONY: bench-validate
bench-validate: venv ## Time `taskspec validate` on 10,000 generated sidecars, jobs 1 vs all CPUs
	$(VPY) scripts/bench_validate.py

.PHONY: clean
clean: ## Remove the venv, local binaries and caches
	rm -rf $(VENV) $(BIN) .mypy_cache .ruff_cache .pytest_cache .hypothesis
