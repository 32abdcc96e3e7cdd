import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anthropicToOpenAI } from "./anthropic-to-openai.js";
import { toolNames, flatName } from "./namespaces.js";
import { droppedThroughChat, responsesToChat } from "./responses.js";
import { responsesToMessages } from "./responses-to-messages.js";
import { nativeResponsesBody } from "./pairs/responses-native.js";
import type { ResponsesRequestBody } from "../providers/types.js";

/**
 * The first request each coding agent sends, recorded from the real CLIs (providers/fixtures:
 * `codex exec` 0.169 on /v1/responses, `claude -p` 2.1.331 on /v1/messages), through the
 * translations to every provider kind. tests/e2e/agents.test.ts runs the CLIs themselves.
 */
const fixture = (name: string) => (JSON.parse(readFileSync(new URL(`../providers/fixtures/${name}`, import.meta.url), "utf8")) as { body: Record<string, unknown> }).body;
const codex = fixture("codex-0.169-responses-request.json") as ResponsesRequestBody;
const claude = fixture("claude-code-2.1.331-messages-request.json");

const PROVIDER_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe("Codex's first request", () => {
  it("to a chat deployment: namespace tools flattened to unique names every provider takes, web search left out and named", () => {
    const chat = responsesToChat(codex);
    const names = (chat.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names).toContain("exec_command");
    expect(names).toContain("multi_agent_v1__spawn_agent");
    // 8 function tools, 5 in the namespace; web search has no chat equivalent.
    expect(names).toHaveLength(12);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(PROVIDER_TOOL_NAME);
    expect(droppedThroughChat(codex)).toEqual(["web_search"]);
    // The developer turns become system messages; the user's text is last.
    expect((chat.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(["system", "system", "user", "user"]);
  });

  it("answers a flattened call with its namespace", () => {
    expect(toolNames(codex.tools).get("multi_agent_v1__spawn_agent")).toEqual({ namespace: "multi_agent_v1", name: "spawn_agent" });
  });

  it("to Anthropic: the same tools, and web search as the server tool bounded by the searches held", () => {
    const { body } = responsesToMessages(codex, 64_000, 5);
    const tools = body.tools as Array<Record<string, unknown>>;
    expect(tools.at(-1)).toEqual({ type: "web_search_20250305", name: "web_search", max_uses: 5 });
    for (const t of tools) expect(String(t.name)).toMatch(PROVIDER_TOOL_NAME);
    expect(responsesToMessages(codex, 64_000, 0).body.tools).toHaveLength(12);
  });

  it("to OpenAI natively: the namespace as sent, max_tool_calls the bound; without a price per search, no search tool", () => {
    const priced = nativeResponsesBody(codex, 128_000, 5);
    expect(priced.tools).toEqual(codex.tools);
    expect(priced.max_tool_calls).toBe(5);
    const unpriced = nativeResponsesBody(codex, 128_000, 0);
    expect((unpriced.tools as Array<{ type: string }>).map((t) => t.type)).not.toContain("web_search");
    expect(unpriced.max_tool_calls).toBeUndefined();
  });

  it("flattened names that would pass 64 characters stay unique", () => {
    const a = flatName("n".repeat(40), `${"x".repeat(40)}_a`);
    const b = flatName("n".repeat(40), `${"x".repeat(40)}_b`);
    expect(a).toMatch(PROVIDER_TOOL_NAME);
    expect(b).toMatch(PROVIDER_TOOL_NAME);
    expect(a).not.toBe(b);
  });
});

describe("Claude Code's first request to a chat deployment", () => {
  it("keeps its system turn in place, maps adaptive thinking at high effort, and names what it leaves out", () => {
    const through = { reasons: true, dropped: [] as string[] };
    const chat = anthropicToOpenAI(claude, through);
    expect((chat.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(["system", "user", "system"]);
    expect(chat.reasoning_effort).toBe("high");
    expect(chat.max_tokens).toBe(32_000);
    expect(chat.tools).toHaveLength((claude.tools as unknown[]).length);
    expect(String(chat.user).length).toBeLessThanOrEqual(64);
    expect(through.dropped).toEqual(["context_management"]);
  });

  it("Claude Code's web search (Anthropic's server tool) is left out and named, like web search on /v1/responses", () => {
    const through = { reasons: true, dropped: [] as string[] };
    const chat = anthropicToOpenAI(
      { model: "m", max_tokens: 100, tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 5 }], tool_choice: { type: "auto" }, messages: [{ role: "user", content: "search" }] },
      through,
    );
    expect(chat.tools).toBeUndefined();
    expect(chat.tool_choice).toBeUndefined();
    expect(through.dropped).toEqual(["web_search"]);
  });

  it("on a model that does not reason: thinking and effort are left out and named", () => {
    const through = { reasons: false, dropped: [] as string[] };
    const chat = anthropicToOpenAI(claude, through);
    expect(chat.reasoning_effort).toBeUndefined();
    expect(through.dropped.sort()).toEqual(["context_management", "thinking"]);
  });
});
