import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { agentHome, claudePrint, codexDebugModels, codexExec, installAgents, type AgentRun } from "../support/agents.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import { answerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The coding agents themselves, unchanged, through the gateway: OpenAI's Codex CLI (`codex exec`,
 * the Responses API with its namespace and web search tools, streamed) and Claude Code (`claude -p`,
 * the Messages API with thinking, context management, system turns and its betas), each with its
 * default configuration and only the base URL and a gateway key set, on models of every provider
 * kind. Each run is a whole agent turn: the model (the fake provider, scripted by a
 * `[[fake-call:…]]` marker in the prompt) calls the agent's own file-reading tool, the agent runs it
 * and sends its result back, and the model answers with what the tool said. The file holds a fresh
 * secret, so it can only reach the agent's output through a tool call and result that crossed the
 * gateway both ways.
 */

let stack: Stack;
let bin: string;
let key: string;
let org: TestOrg;
let work: string;
let secret: string;

beforeAll(async () => {
  [bin, stack] = await Promise.all([installAgents(), startStack("agents")]);
  org = await createOrg(stack, { balanceMinor: 50_000_000, models: ["gw-gpt", "gw-claude", "gw-chat-mini", "gw-gemini"] });
  key = org.secret;
  await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/models`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await r.json()) as { data?: unknown[] };
      return (body.data?.length ?? 0) >= 4 ? true : undefined;
    },
    15_000,
    "the agents' models visible to the new org",
  );
  work = await mkdtemp(join(tmpdir(), "gw-agent-work-"));
  secret = `secret-${randomBytes(6).toString("hex")}`;
  await writeFile(join(work, "hello.txt"), `${secret}\n`);
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * The agent's run was a whole tool turn: it exited 0 with the model's answer quoting the tool's
 * result (the file's secret), and the provider requests that carried this run's marker (two at
 * least: the call, then the result) all went to the model's provider; one carried the secret back.
 */
function expectToolTurn(r: AgentRun, marker: string, path: string) {
  expect(r.stdout, `the agent exited ${r.code}: ${r.stderr}`).toContain("Tool said:");
  expect(r.stdout).toContain(secret);
  expect(r.code).toBe(0);
  const sent = stack.fake.requests.filter((q) => JSON.stringify(q.body ?? "").includes(marker));
  expect(sent.length).toBeGreaterThanOrEqual(2);
  for (const s of sent) expect(s.path.startsWith(path)).toBe(true);
  expect(sent.some((s) => JSON.stringify(s.body).includes(secret))).toBe(true);
  return sent;
}

/** Turns served over the Responses API's WebSocket mode so far (the data-plane's request counter). */
async function webSocketTurns(): Promise<number> {
  const text = await (await fetch(`${stack.dataPlanes[0]!.url}/metrics`)).text();
  let n = 0;
  for (const line of text.split("\n")) if (line.startsWith('gateway_http_requests_total{route="WS /v1/responses"')) n += Number(line.split(" ").at(-1));
  return n;
}

/**
 * Each provider request of the run was billed exactly: the org's usage records of `model` since
 * `from` are one per request the fake answered, each with the tokens the fake reported.
 */
async function expectBilledExactly(model: string, from: number, sent: ReturnType<typeof expectToolTurn>) {
  const reported = sent.map((s) => answerUsage(s)).map((u) => `${u.input + u.cacheRead + u.cacheWrite}/${u.output}`);
  const records = await eventually(
    async () => {
      const r = await stack.ledgerClient.ListUsage({ org_id: org.orgId, key_id: "", model, route: "responses", status: 0, from_ms: from, to_ms: Date.now() + 1_000, limit: 50, cursor: "" });
      // Billed records only: Codex's WebSocket turns first name a previous response the gateway does
      // not keep (a 404 it answers by sending the whole history), which leaves a refusal record.
      const billed = r.records.filter((x) => !x.error_code);
      return billed.length >= sent.length ? billed : undefined;
    },
    15_000,
    `the usage records of ${model}`,
  );
  expect(records.map((r) => `${r.input_tokens}/${r.output_tokens}`).sort()).toEqual(reported.sort());
  for (const r of records) expect(r).toMatchObject({ estimated: false, basis: "reported", status: 200, stream: true });
}

/**
 * An organization of its own with 200,000 minor units, its models visible: a modest balance runs the
 * agents' turns, held in tranches (docs/billing.md) rather than at each model's whole output (Codex
 * sends no output limit: gw-gpt's 128,000 tokens held whole would need 1.28 million).
 */
async function modest(): Promise<string> {
  const org = await createOrg(stack, { balanceMinor: 200_000, models: ["gw-gpt", "gw-claude", "gw-chat-mini", "gw-gemini"] });
  await eventually(
    async () => {
      const r = await fetch(`${stack.baseUrl()}/models`, { headers: { authorization: `Bearer ${org.secret}` } });
      return (((await r.json()) as { data?: unknown[] }).data?.length ?? 0) >= 4 ? true : undefined;
    },
    15_000,
    "the models visible",
  );
  return org.secret;
}

describe("Codex CLI (codex exec) through /v1/responses", () => {
  // gw-gpt: OpenAI natively (namespace and web search tools as sent); gw-claude: Anthropic (tools
  // flattened, web search as Anthropic's server tool); gw-chat-mini: an OpenAI-compatible chat server
  // (flattened, web search left out); gw-gemini: Google's Gemini API. Codex's default transport is
  // the Responses API's WebSocket mode: every turn of the run goes over it (no fallback to HTTP),
  // each billed at the provider's own usage.
  for (const [model, path] of [
    ["gw-gpt", "/v1/responses"],
    ["gw-claude", "/v1/messages"],
    ["gw-chat-mini", "/v1/chat/completions"],
    ["gw-gemini", "/gemini/v1beta/models/"],
  ] as const) {
    it(`${model}: a turn that runs a command and answers with its output`, async () => {
      const home = await agentHome();
      const marker = `codex-${model}-${randomBytes(4).toString("hex")}`;
      try {
        const from = Date.now();
        const before = await webSocketTurns();
        const r = await codexExec(bin, { baseUrl: stack.baseUrl(), key, model, cwd: work, home: home.dir, prompt: `${marker} read the file [[fake-call:exec_command {"cmd":"cat hello.txt"}]]` });
        const sent = expectToolTurn(r, marker, path);
        const output = `${r.stdout}${r.stderr}`;
        expect(output).not.toContain("Falling back from WebSockets");
        expect(output).not.toContain("426");
        // Its warm-up (generate: false) and the tool turn's requests, all over the WebSocket.
        expect((await webSocketTurns()) - before).toBeGreaterThanOrEqual(sent.length + 1);
        await expectBilledExactly(model, from, sent);
      } finally {
        await home.remove();
      }
    }, 180_000);
  }
});

describe("Codex's model metadata from the gateway (POST /v1/codex/models)", () => {
  it("Codex's own catalog in, the key's models out: Codex knows the model (no fallback warning), uses the catalog's window, and runs a tool turn on a modest balance", async () => {
    const home = await agentHome();
    const modestKey = await modest();
    const marker = `codex-catalog-${randomBytes(4).toString("hex")}`;
    try {
      const own = await codexDebugModels(bin, { home: home.dir, cwd: work });
      expect(own.code, own.stderr).toBe(0);
      const r = await fetch(`${stack.baseUrl()}/codex/models`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: own.stdout });
      expect(r.status).toBe(200);
      const catalog = join(home.dir, "gateway-models.json");
      const served = await r.text();
      await writeFile(catalog, served);
      const setting = `model_catalog_json="${catalog}"`;
      // Codex reads it as its catalog: the key's models, each with the window the gateway's catalog gives it.
      const listed = (await (await fetch(`${stack.baseUrl()}/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Array<{ id: string; context_window: number }> };
      const read = await codexDebugModels(bin, { home: home.dir, cwd: work, config: [setting] });
      expect(read.code, read.stderr).toBe(0);
      const seen = JSON.parse(read.stdout) as { models: Array<{ slug: string; context_window: number }> };
      expect(Object.fromEntries(seen.models.map((m) => [m.slug, m.context_window]))).toEqual(Object.fromEntries(listed.data.map((m) => [m.id, m.context_window])));
      const run = await codexExec(bin, {
        baseUrl: stack.baseUrl(),
        key: modestKey,
        model: "gw-gpt",
        cwd: work,
        home: home.dir,
        config: [setting],
        prompt: `${marker} read the file [[fake-call:exec_command {"cmd":"cat hello.txt"}]]`,
      });
      const sent = expectToolTurn(run, marker, "/v1/responses");
      expect(`${run.stdout}${run.stderr}`).not.toContain("Model metadata for");
      // Codex's own instructions (its catalog's, kept by the gateway's entry) lead what it sent.
      const instructions = (JSON.parse(served) as { models: Array<{ slug: string; base_instructions: string }> }).models.find((m) => m.slug === "gw-gpt")!.base_instructions;
      expect(instructions.length).toBeGreaterThan(1_000);
      const input = (sent[0]!.body as { input: Array<{ role?: string; content?: Array<{ text?: string }> }> }).input;
      expect(input[0]).toMatchObject({ role: "developer" });
      expect(input[0]!.content?.[0]?.text).toBe(instructions);
    } finally {
      await home.remove();
    }
  }, 180_000);

  it("a body that is not a Codex catalog: 400 naming what to send", async () => {
    const r = await fetch(`${stack.baseUrl()}/codex/models`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ models: [{ id: "x" }] }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string; param: string } }).error).toMatchObject({ param: "models", message: expect.stringContaining("codex debug models") });
  });
});

describe("Claude Code (claude -p) through /v1/messages", () => {
  // gw-claude: Anthropic natively; gw-gpt: OpenAI through chat completions (thinking as reasoning
  // effort where the model reasons, context management left out, system turns in place); gw-gemini.
  for (const [model, path] of [
    ["gw-claude", "/v1/messages"],
    ["gw-gpt", "/v1/chat/completions"],
    ["gw-gemini", "/gemini/v1beta/models/"],
    // Not gw-chat-large: Claude Code's prompt alone (about 60 KB, one token per byte at most, 3 minor
    // per token) bounds to more than the modest balance before any output is held (docs/billing.md).
    ["gw-chat-mini", "/v1/chat/completions"],
  ] as const) {
    it(`${model}: a turn that reads a file with the Read tool and answers with its content, on a modest balance`, async () => {
      const home = await agentHome();
      const marker = `claude-${model}-${randomBytes(4).toString("hex")}`;
      try {
        const r = await claudePrint(bin, {
          baseUrl: stack.baseUrl(),
          key: await modest(),
          model,
          cwd: work,
          home: home.dir,
          prompt: `${marker} read it [[fake-call:Read {"file_path":"${join(work, "hello.txt")}"}]]`,
        });
        const sent = expectToolTurn(r, marker, path);
        // Claude Code's adaptive thinking at high effort, as each provider's own reasoning control.
        const first = sent[0]!.body as Record<string, Record<string, unknown> | undefined>;
        if (model === "gw-gpt") expect(first.reasoning_effort).toBe("high");
        if (model === "gw-gemini") expect(first.generationConfig?.thinkingConfig).toBeDefined();
      } finally {
        await home.remove();
      }
    }, 180_000);
  }
});
