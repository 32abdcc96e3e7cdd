SHELL := /bin/bash
export PATH := $(CURDIR)/.tools/bin:$(PATH)
export NODE_OPTIONS := --disable-warning=ExperimentalWarning

.PHONY: bootstrap install build up down test typecheck bench clean

bootstrap:
	@bash scripts/bootstrap.sh

install: bootstrap
	@pnpm install --frozen-lockfile --reporter=silent

build: install
	@pnpm exec turbo run build --output-logs=errors-only

## Start Postgres, NATS, the fake upstream and the three services on loopback (foreground; Ctrl-C stops).
up: build
	@node scripts/local-stack.ts up

## Stop a stack left running by `make up`.
down: bootstrap
	@node scripts/local-stack.ts down

## Every test against throwaway Postgres and NATS on free ports.
test: build
	@pnpm exec vitest run

typecheck: build
	@pnpm exec turbo run typecheck --output-logs=errors-only

clean:
	rm -rf apps/*/dist packages/*/dist .turbo
