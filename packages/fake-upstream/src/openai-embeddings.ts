import type { ServerResponse } from "node:http";
import { countTokens } from "./tokens.js";

interface EmbeddingsBody {
  model?: string;
  input?: unknown;
  dimensions?: number;
  encoding_format?: string;
}

/** Deterministic vectors: the same text always embeds the same way. */
function vector(text: string, dims: number): number[] {
  let seed = 0;
  for (const ch of text) seed = (seed * 31 + ch.codePointAt(0)!) % 1_000_003;
  return Array.from({ length: dims }, (_, i) => ((seed * (i + 7)) % 1000) / 1000);
}

export function handleEmbeddings(body: EmbeddingsBody, res: ServerResponse): void {
  const byteTokens = /\+byte_tokens\b/.test(body.model ?? "");
  const count = byteTokens ? (t: string) => Buffer.byteLength(t, "utf8") : countTokens;
  const raw = body.input;
  const inputs: unknown[] = typeof raw === "string" ? [raw] : Array.isArray(raw) && raw.length > 0 && typeof raw[0] === "number" ? [raw] : Array.isArray(raw) ? raw : [];
  const dims = body.dimensions ?? 8;
  let tokens = 0;
  const data = inputs.map((inp, index) => {
    const text = typeof inp === "string" ? inp : JSON.stringify(inp);
    tokens += typeof inp === "string" ? count(inp) : Array.isArray(inp) ? inp.length : 0;
    const v = vector(text, dims);
    const embedding = body.encoding_format === "base64" ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v;
    return { object: "embedding", index, embedding };
  });
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
}
