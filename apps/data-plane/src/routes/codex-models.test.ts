import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Model } from "@gateway/proto";
import { codexEntry, type CodexModelEntry } from "./codex-models.js";

/** `codex debug models` of Codex 0.169.0, two entries, every field (the instructions elided). */
const recorded = JSON.parse(readFileSync(new URL("./fixtures/codex-models-0.169.0.json", import.meta.url), "utf8")) as { models: CodexModelEntry[] };
const template = recorded.models.find((m) => m.visibility === "list")!;

const model = (o: Partial<Model>): Model => ({ id: "gw-gpt", context_window: 128_000, max_input_tokens_per_image: 2_000, reasoning: true, ...o }) as Model;

describe("Codex's catalog entry for a gateway model", () => {
  it("keeps every field of Codex's own format, with the gateway's id, window, modalities and efforts", () => {
    const entry = codexEntry(template, model({}), 0);
    // Codex refuses a catalog whose entries lack a field of its version: every template field is there.
    expect(Object.keys(entry).sort()).toEqual(Object.keys(template).sort());
    expect(entry).toMatchObject({ slug: "gw-gpt", display_name: "gw-gpt", context_window: 128_000, max_context_window: 128_000, visibility: "list", supported_in_api: true, priority: 0 });
    expect(entry.input_modalities).toEqual(["text", "image"]);
    expect(entry.supported_reasoning_levels).toEqual(template.supported_reasoning_levels);
    // What only Codex knows is Codex's: its instructions and tool settings.
    expect(entry.base_instructions).toBe(template.base_instructions);
    expect(entry.shell_type).toBe(template.shell_type);
    // Nothing that would make Codex ask for a dearer service than the catalog price bills.
    expect(entry.service_tiers).toEqual([]);
    expect(entry.additional_speed_tiers).toEqual([]);
  });

  it("speaks the plain Responses API the gateway serves, whatever the template: not the lite variant, no code-only tool mode", () => {
    const lite = recorded.models.find((m) => m.use_responses_lite === true)!;
    expect(lite.tool_mode).toBe("code_mode_only");
    expect(codexEntry(lite, model({}), 0)).toMatchObject({ use_responses_lite: false, tool_mode: null, apply_patch_tool_type: null, supports_search_tool: false });
  });

  it("a model without image input or reasoning: text only, no efforts", () => {
    const entry = codexEntry(template, model({ id: "gw-chat-mini", max_input_tokens_per_image: 0, reasoning: false }), 3);
    expect(entry).toMatchObject({ slug: "gw-chat-mini", input_modalities: ["text"], supported_reasoning_levels: [], default_reasoning_level: null, priority: 3 });
  });
});
