import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_STREAM, catalogPricesSubject } from "@gateway/events";
import type { PriceSheet } from "@gateway/pricing";
import { startTestControlPlane, type TestControlPlane } from "./support.js";

/**
 * Every catalog version's prices are on NATS (stream CATALOG) before any data-plane can price a
 * request with it, since the ledger checks each usage event's cost against them
 * (docs/security.md, "Usage events"); a change whose prices cannot be published is not made.
 */
let t: TestControlPlane;
let nc: NatsConnection;

const sheetOf = async (version: number): Promise<PriceSheet | undefined> => {
  const msg = await (await jetstreamManager(nc)).streams.getMessage(CATALOG_STREAM, { last_by_subj: catalogPricesSubject(version) });
  return msg?.json<PriceSheet>();
};

const model = {
  id: "m-chat",
  routes: ["chat"],
  context_window: 8000,
  max_output_tokens: 1000,
  input_price_minor_per_mtok: 150_000,
  output_price_minor_per_mtok: 600_000,
  cached_input_price_minor_per_mtok: 75_000,
  deployments: [{ provider: "p1", upstream_model: "up-chat" }],
};
const provider = { code: "p1", kind: "openai-compatible", base_url: "http://127.0.0.1:1/v1", credential_ref: "P1_KEY" };
const server = { name: "tools", url: "https://mcp.example.com/mcp", credential_ref: "TOOLS_KEY", tools: [{ name: "echo", price_minor: 25 }] };

beforeAll(async () => {
  t = await startTestControlPlane("cp_price_sheets", "price-sheets-admin-token", "price-sheets-data-plane-token");
  nc = await connect({ servers: t.nats.url });
});

afterAll(async () => {
  await nc?.close();
  await t?.stop();
});

describe("price sheets", () => {
  it("are published for the version a control-plane starts with, and for each version a catalog apply or a new MCP pin makes", async () => {
    const start = (await t.control.GetCatalog({ known_version: 0 })).version;
    expect(await sheetOf(start)).toEqual({ version: start, models: {}, tools: {} });
    const applied = await t.admin.ApplyCatalog({ document_json: JSON.stringify({ providers: [provider], models: [model], mcp_servers: [server] }) });
    expect(await sheetOf(applied.version)).toEqual({
      version: applied.version,
      models: {
        "m-chat": {
          input_price_minor_per_mtok: 150_000,
          output_price_minor_per_mtok: 600_000,
          cached_input_price_minor_per_mtok: 75_000,
          image_prices: [],
          default_image_size: "",
          video_prices: [],
          // What its deployment charges the operator per token class (reconciliation): the model's prices, as it states no cost price.
          provider_costs: { "p1/up-chat": { input: 150_000, cached_input: 75_000, cache_write: 150_000, output: 600_000, reasoning: 600_000 } },
        },
      },
      tools: { "tools/echo": 25 },
    });
    // A data-plane reports the tool's first definition: pinned, and the catalog moves on, prices included.
    await t.control.ReportMcpTools({ server: "tools", tools: [{ name: "echo", definition_json: JSON.stringify({ name: "echo", inputSchema: { type: "object" } }) }] });
    const pinned = (await t.control.GetCatalog({ known_version: 0 })).version;
    expect(pinned).toBe(applied.version + 1);
    expect((await sheetOf(pinned))?.tools).toEqual({ "tools/echo": 25 });
  });

  it("make a catalog change that cannot publish its prices fail, changing nothing", async () => {
    const before = await t.control.GetCatalog({ known_version: 0 });
    await nc.close();
    await t.nats.stop();
    const refused = await t.admin.ApplyCatalog({ document_json: JSON.stringify({ models: [{ ...model, input_price_minor_per_mtok: 1 }] }) }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/prices (cannot|could not) be published.*nothing was changed/);
    const after = await t.control.GetCatalog({ known_version: 0 });
    expect(after.version).toBe(before.version);
    expect(after.models.find((m) => m.id === "m-chat")?.input_price_minor_per_mtok).toBe(150_000);
  });
});
