/**
 * Gemini schema budget: what the data-plane's event loop spends on a chat request for a Gemini
 * deployment whose tool schema expands exponentially once its `$ref`s are inlined (definitions
 * that each use the next one twice: 2^levels copies). Before the budget, 19 levels (a 2 KB body)
 * took 3 s and sent 15 MB upstream, 24 levels ran out of memory; now both are refused with a 400
 * (target: well under 100 ms). Times the whole translation the pipeline runs (`buildChatRequest`:
 * the Gemini body built and serialized) from the parsed body: the first call of the process (cold:
 * the code not compiled yet) and p50 / max over `iterations` more. For scale, also the largest
 * doubling that fits (13 levels, 8,191 nodes) and a real 200-property schema over shared
 * definitions, both converted. In-process and bounded (fixed iteration count); ends with a JSON line.
 *
 *   make build && node apps/data-plane/bench/gemini-schema-budget.ts [iterations=200]
 */
import { GatewayError } from "@gateway/errors";
import type { ChatRequestBody, UpstreamTarget } from "../src/providers/types.js";

// The built module (what runs in production), typed as its source (the build writes no declarations).
const { geminiChat } = (await import("../dist/providers/gemini/chat.js")) as unknown as typeof import("../src/providers/gemini/chat.js");

const N = Number(process.argv[2] ?? 200);

const target: UpstreamTarget = {
  provider: { code: "google", kind: "gemini", base_url: "https://generativelanguage.googleapis.com/v1beta/", credential_ref: "GEMINI_API_KEY", auth_header: "", max_connections: 0, http2: false },
  deployment: { provider: "google", upstream_model: "gemini-2.5-flash", priority: 0, weight: 1 },
  apiKey: "bench",
};

/** `levels` definitions, each an object whose two properties both use the next one. */
function doubling(levels: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/d${i + 1}` };
    $defs[`d${i}`] = i + 1 < levels ? { type: "object", properties: { a: next, b: next } } : { type: "string" };
  }
  return { type: "object", properties: { root: { $ref: "#/$defs/d0" } }, $defs };
}

/** 200 properties over a few shared definitions (an address, an amount, tags, lines inheriting the amount). */
function realistic(): Record<string, unknown> {
  const $defs = {
    Address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" }, country: { type: "string", enum: ["FR", "DE", "US"] } }, required: ["street", "city"] },
    Money: { type: "object", properties: { amount: { type: "number" }, currency: { type: "string", pattern: "^[A-Z]{3}$" } }, required: ["amount", "currency"] },
    Tag: { type: "string", maxLength: 32 },
    Line: { allOf: [{ $ref: "#/$defs/Money" }, { type: "object", properties: { sku: { type: "string" } } }] },
  };
  const kinds = [
    { $ref: "#/$defs/Address", description: "Where it goes" },
    { anyOf: [{ $ref: "#/$defs/Money" }, { type: "null" }] },
    { type: "array", items: { $ref: "#/$defs/Tag" } },
    { type: ["integer", "null"], minimum: 0 },
    { type: "array", items: { $ref: "#/$defs/Line" } },
  ];
  return { type: "object", $defs, properties: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field_${i}`, kinds[i % 5]])) };
}

/** A chat body as the pipeline has it: parsed from its JSON text, with one tool of these parameters. */
const chatBody = (parameters: unknown): { body: ChatRequestBody; bytes: number } => {
  const text = JSON.stringify({ model: "gw-gemini", messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "f", parameters } }] });
  return { body: JSON.parse(text) as ChatRequestBody, bytes: Buffer.byteLength(text) };
};

interface Outcome {
  ms: number;
  /** The 400's message, or the size of the Gemini body sent upstream. */
  result: string | number;
}
function once(body: ChatRequestBody): Outcome {
  const t = process.hrtime.bigint();
  let result: string | number;
  try {
    result = Buffer.byteLength(geminiChat.buildChatRequest(body, target).body!);
  } catch (e) {
    if (!(e instanceof GatewayError) || e.code !== "invalid_request") throw e;
    result = e.message;
  }
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, result };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
function measure(name: string, parameters: unknown, refused: boolean) {
  const { body, bytes } = chatBody(parameters);
  const cold = once(body);
  const samples: number[] = [];
  for (let i = 0; i < N; i++) samples.push(once(body).ms);
  samples.sort((a, b) => a - b);
  const row = { body_bytes: bytes, cold_ms: round(cold.ms), p50_ms: round(samples[Math.floor(N / 2)]!), max_ms: round(samples.at(-1)!) };
  if (refused !== (typeof cold.result === "string")) throw new Error(`${name}: expected ${refused ? "a refusal" : "a conversion"}, got ${String(cold.result)}`);
  const what = typeof cold.result === "string" ? `refused: ${cold.result}` : `converted: ${cold.result} bytes upstream`;
  console.log(`${name.padEnd(22)} ${String(bytes).padStart(6)} B body  cold ${row.cold_ms} ms  p50 ${row.p50_ms} ms  max ${row.max_ms} ms  ${what}`);
  return typeof cold.result === "number" ? { ...row, upstream_bytes: cold.result } : row;
}

const rows = {
  doubling_19: measure("19 levels (2 KB)", doubling(19), true),
  doubling_24: measure("24 levels", doubling(24), true),
  doubling_13: measure("13 levels (fits)", doubling(13), false),
  realistic_200: measure("200 properties (real)", realistic(), false),
};
console.log(JSON.stringify({ bench: "gemini-schema-budget", iterations: N, ...rows }));
