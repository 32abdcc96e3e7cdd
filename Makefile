SHELL := /bin/bash
export PATH := $(CURDIR)/.tools/bin:$(PATH)
export NODE_OPTIONS := --disable-warning=ExperimentalWarning
# Node's compiled-code cache for every node process a target starts (the tests start hundreds:
# gatewayctl, the drain, services in their own processes): each loads its modules' code compiled
# before instead of compiling it again (~10 % of a gatewayctl run). Keyed by each file's contents.
export NODE_COMPILE_CACHE ?= $(CURDIR)/.tools/node-compile-cache

.PHONY: bootstrap install build up down test test-fast check typecheck lint bench clean

bootstrap:
	@bash scripts/bootstrap.sh

install: bootstrap
	@pnpm install --frozen-lockfile --reporter=silent

build: install
	@pnpm exec turbo run build --output-logs=errors-only

## Start Postgres, NATS, the fake upstream and the four services (data-plane, control-plane, ledger, console) on loopback (foreground; Ctrl-C stops).
up: build
	@node scripts/local-stack.ts up

## Stop a stack left running by `make up`.
down: bootstrap
	@node scripts/local-stack.ts down

## Every test against throwaway Postgres and NATS on free ports, with the check (generated types, format, typecheck, lint) beside them:
## the typecheck's ~13 s of one core runs while the first tests wait on their databases. Either failing fails the target; the check's
## output comes after the tests'.
test: build
	@node packages/proto/gen-types.mjs --check
	@pnpm exec biome format --reporter=summary
	@log=$$(mktemp); ( pnpm exec tsc -p tsconfig.test.json && pnpm exec tsc -p apps/console/tsconfig.web.json --noEmit && pnpm exec biome lint --error-on-warnings . ) > $$log 2>&1 & check=$$!; \
	  pnpm exec vitest run; tests=$$?; \
	  wait $$check; checked=$$?; cat $$log; rm -f $$log; \
	  if [ $$checked -ne 0 ]; then echo "make test: the typecheck or the linter failed (above)"; fi; \
	  [ $$tests -eq 0 ] && [ $$checked -eq 0 ]

## The inner loop: unit, service and integration tests against real Postgres and NATS, without the end-to-end suites or the check (about 45 s).
test-fast: build
	@pnpm exec vitest run apps packages tests/integration

## Fails on proto message types that are not what proto/ generates, a type error anywhere (src, *.test.ts, tests/, bench/, scripts/), a lint finding or a file the formatter would change (`pnpm format` fixes those).
## One TypeScript program and one Biome run over the whole tree: a program per package parsed the same libraries fifteen times.
check: build
	@node packages/proto/gen-types.mjs --check
	@pnpm exec biome format --reporter=summary
	@pnpm exec tsc -p tsconfig.test.json
	@pnpm exec tsc -p apps/console/tsconfig.web.json --noEmit
	@pnpm exec biome lint --error-on-warnings .

typecheck: build
	@pnpm exec tsc -p tsconfig.test.json
	@pnpm exec tsc -p apps/console/tsconfig.web.json --noEmit

lint: install
	@pnpm exec biome lint --error-on-warnings .

clean:
	rm -rf apps/*/dist packages/*/dist .turbo
