import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, migrate, sql, type Kysely } from "@gateway/db";
import { createDatabase, testPgUrl } from "@gateway/testing";
import { migrations } from "../src/db/migrations/index.js";

/**
 * Upgrading a catalog made before reasoning models and media bounds (docs/operations.md, "Media
 * bounds on upgrade"): what its models took before keeps working, now bounded, until the operator's
 * next apply says otherwise.
 */
let db: Kysely<unknown>;
/** The catalog as it was before reasoning models: every migration from this one on is applied over it. */
const FIRST_NEW = "20261208000000-reasoning-models";

beforeAll(async () => {
  db = createDb({ url: await createDatabase(testPgUrl(), "control_upgrade_backfill"), schema: "control", poolMax: 2 }) as Kysely<unknown>;
});
afterAll(async () => {
  await db?.destroy();
});

it("marks models priced for reasoning as reasoning models, and bounds the searches and PDFs of the models that took them", async () => {
  const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < FIRST_NEW));
  await migrate(db, "control", before);
  const model = (id: string, extra: string) =>
    sql`INSERT INTO control.models (id, status, routes, context_window, max_output_tokens, input_price_minor_per_mtok, output_price_minor_per_mtok) VALUES (${id}, 'published', '{chat}', 128000, 4096, 1, 1)`
      .execute(db)
      .then(() => sql.raw(`UPDATE control.models SET ${extra} WHERE id = '${id}'`).execute(db));
  await model("thinker", "reasoning_price_minor_per_mtok = 5");
  await model("searcher", "web_search_price_minor = 10000, max_input_tokens_per_image = 0");
  await model("vision", "max_input_tokens_per_image = 1600");
  await model("plain", "max_input_tokens_per_image = 0");
  await model("claude", "routes = '{chat,messages}', max_input_tokens_per_image = 0");
  await migrate(db, "control", migrations);
  const rows = (
    await sql<{ id: string; reasoning: boolean; max_input_tokens_per_web_search: number; max_input_tokens_per_pdf_page: number }>`
      SELECT id, reasoning, max_input_tokens_per_web_search::int, max_input_tokens_per_pdf_page::int FROM control.models ORDER BY id`.execute(db)
  ).rows;
  expect(rows).toEqual([
    { id: "claude", reasoning: false, max_input_tokens_per_web_search: 0, max_input_tokens_per_pdf_page: 0 },
    { id: "plain", reasoning: false, max_input_tokens_per_web_search: 0, max_input_tokens_per_pdf_page: 0 },
    { id: "searcher", reasoning: false, max_input_tokens_per_web_search: 8_000, max_input_tokens_per_pdf_page: 0 },
    { id: "thinker", reasoning: true, max_input_tokens_per_web_search: 0, max_input_tokens_per_pdf_page: 3_000 },
    { id: "vision", reasoning: false, max_input_tokens_per_web_search: 0, max_input_tokens_per_pdf_page: 3_000 },
  ]);
});

it("gives a model that serves Messages the betas coding agents send, and no other model any (the allowlist of Anthropic betas)", async () => {
  const betas = (await sql<{ id: string; anthropic_betas: string[] }>`SELECT id, anthropic_betas FROM control.models ORDER BY id`.execute(db)).rows;
  expect(betas.find((m) => m.id === "claude")!.anthropic_betas).toEqual(expect.arrayContaining(["claude-code-20250219", "interleaved-thinking-2025-05-14"]));
  expect(betas.find((m) => m.id === "claude")!.anthropic_betas.some((b) => b.startsWith("context-1m"))).toBe(false);
  for (const m of betas.filter((x) => x.id !== "claude")) expect(m.anthropic_betas, m.id).toEqual([]);
});
