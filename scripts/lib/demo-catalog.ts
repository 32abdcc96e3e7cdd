/**
 * The demo catalog: every model points at the fake upstream, so the local stack and the tests run
 * offline. Prices are minor credit units per million tokens (1 credit = 1,000,000 minor).
 */
export function demoCatalog(fakeUpstreamUrl: string) {
  return {
    providers: [
      { code: "fake", kind: "openai-compatible", base_url: `${fakeUpstreamUrl}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
      { code: "fake-backup", kind: "openai-compatible", base_url: `${fakeUpstreamUrl}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
      { code: "fake-anthropic", kind: "anthropic", base_url: `${fakeUpstreamUrl}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
    ],
    models: [
      {
        id: "gw-chat-mini",
        status: "published",
        routes: ["chat", "messages"],
        context_window: 128_000,
        max_output_tokens: 4_096,
        input_price_minor_per_mtok: 150_000,
        output_price_minor_per_mtok: 600_000,
        deployments: [
          { provider: "fake", upstream_model: "fake-chat", priority: 0 },
          { provider: "fake-backup", upstream_model: "fake-chat-backup", priority: 1 },
        ],
      },
      {
        id: "gw-chat-large",
        status: "published",
        routes: ["chat", "messages"],
        context_window: 200_000,
        max_output_tokens: 8_192,
        input_price_minor_per_mtok: 3_000_000,
        output_price_minor_per_mtok: 15_000_000,
        deployments: [{ provider: "fake", upstream_model: "fake-chat-large", priority: 0 }],
      },
      {
        id: "gw-claude",
        status: "published",
        routes: ["chat", "messages"],
        context_window: 200_000,
        max_output_tokens: 8_192,
        input_price_minor_per_mtok: 800_000,
        output_price_minor_per_mtok: 4_000_000,
        deployments: [{ provider: "fake-anthropic", upstream_model: "fake-claude", priority: 0 }],
      },
      {
        id: "gw-embed-small",
        status: "published",
        routes: ["embeddings"],
        context_window: 8_192,
        max_output_tokens: 0,
        input_price_minor_per_mtok: 20_000,
        output_price_minor_per_mtok: 0,
        deployments: [
          { provider: "fake", upstream_model: "fake-embed", priority: 0 },
          { provider: "fake-backup", upstream_model: "fake-embed-backup", priority: 1 },
        ],
      },
      {
        id: "gw-image",
        status: "published",
        routes: ["images"],
        context_window: 0,
        max_output_tokens: 0,
        input_price_minor_per_mtok: 0,
        output_price_minor_per_mtok: 0,
        image_prices: [
          { size: "1024x1024", quality: "standard", price_minor: 40_000 },
          { size: "1024x1024", quality: "hd", price_minor: 80_000 },
          { size: "1792x1024", quality: "*", price_minor: 120_000 },
        ],
        deployments: [{ provider: "fake", upstream_model: "fake-image", priority: 0 }],
      },
    ],
  };
}

export const DEMO_MODELS = ["gw-chat-mini", "gw-chat-large", "gw-claude", "gw-embed-small", "gw-image"];
export const FAKE_UPSTREAM_API_KEY = "fake-upstream-local-key";
