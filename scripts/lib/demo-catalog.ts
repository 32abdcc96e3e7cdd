/**
 * The demo catalog: every model points at the fake upstream, so the local stack and the tests run
 * offline. Prices are minor credit units per million tokens (1 credit = 1,000,000 minor).
 */

/**
 * What the reasoning models declare as their provider's fastest generation, output tokens per
 * second (reasoning included): the fake upstream spends hidden reasoning at R = 1,000 tokens/s, and
 * the catalog declares 2R, an upper bound as a real catalog's must be.
 */
const REASONING_TOKENS_PER_SECOND = 2_000;
/**
 * Most prompt tokens one PDF page costs at Anthropic and OpenAI, which bill a page as an image plus
 * its text (~1,500–3,000 tokens): the top of that range.
 */
const PDF_PAGE_TOKENS = 3_000;
/** Most prompt tokens the results of one web search bring into the prompt (typically several thousand). */
const WEB_SEARCH_TOKENS = 8_000;
/** What Claude Code 2.1.331 sends in `anthropic-beta` (apps/data-plane/src/providers/fixtures/), plus interleaved thinking's successor names. */
export const CLAUDE_CODE_BETAS = [
  "claude-code-20250219",
  "interleaved-thinking-2025-05-14",
  "context-management-2025-06-27",
  "mid-conversation-tool-changes-2026-07-01",
  "thinking-token-count-2026-05-13",
  "advanced-tool-use-2025-11-20",
  "effort-2025-11-24",
  "fine-grained-tool-streaming-2025-05-14",
];

export function demoCatalog(fakeUpstreamUrl: string) {
  return {
    providers: [
      { code: "fake", kind: "openai-compatible", base_url: `${fakeUpstreamUrl}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
      { code: "fake-backup", kind: "openai-compatible", base_url: `${fakeUpstreamUrl}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
      // Speaks OpenAI's own APIs, the Responses API included (the compatible ones above do not).
      { code: "fake-openai", kind: "openai", base_url: `${fakeUpstreamUrl}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
      { code: "fake-anthropic", kind: "anthropic", base_url: `${fakeUpstreamUrl}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
      { code: "fake-fal", kind: "fal", base_url: `${fakeUpstreamUrl}/fal`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
      // Google's Gemini API, as at https://generativelanguage.googleapis.com/v1beta.
      { code: "fake-gemini", kind: "gemini", base_url: `${fakeUpstreamUrl}/gemini/v1beta`, credential_ref: "FAKE_UPSTREAM_API_KEY" },
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
        // OpenAI-style: cache reads at half the input price, writes at the input price.
        cached_input_price_minor_per_mtok: 75_000,
        // gpt-4o-mini bills an image at 2,833 tokens plus 5,667 per 512-px tile, up to 8 tiles at high
        // detail: 48,169 (gpt-4o: 85 + 8 × 170 = 1,445). A model that declares none takes no images.
        max_input_tokens_per_image: 48_169,
        // PDFs as chat completions `file` parts.
        max_input_tokens_per_pdf_page: PDF_PAGE_TOKENS,
        deployments: [
          // What the provider charges the operator here (attempt records, margin): below the price.
          { provider: "fake", upstream_model: "fake-chat", priority: 0, cost_input_price_minor_per_mtok: 100_000, cost_output_price_minor_per_mtok: 400_000 },
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
        cached_input_price_minor_per_mtok: 1_500_000,
        reasoning_price_minor_per_mtok: 15_000_000,
        // A reasoning model (OpenAI-style: chat completions never stream its reasoning).
        reasoning: true,
        max_output_tokens_per_second: REASONING_TOKENS_PER_SECOND,
        // Above OpenAI's (gpt-4o: 1,445) and Anthropic's (~1,600) most per image.
        max_input_tokens_per_image: 2_000,
        // PDFs as chat completions `file` parts.
        max_input_tokens_per_pdf_page: PDF_PAGE_TOKENS,
        deployments: [{ provider: "fake", upstream_model: "fake-chat-large", priority: 0 }],
      },
      {
        // On OpenAI itself (the Responses API natively), falling back to a chat-completions server.
        id: "gw-gpt",
        status: "published",
        routes: ["chat", "messages"],
        // GPT-5's real limits: a 400k window, 128k output tokens (coding agents ask for 32k by default).
        context_window: 400_000,
        max_output_tokens: 128_000,
        input_price_minor_per_mtok: 1_250_000,
        output_price_minor_per_mtok: 10_000_000,
        cached_input_price_minor_per_mtok: 125_000,
        // A reasoning model: its hidden reasoning tokens are billed at the output price (and Claude Code's thinking maps to its reasoning_effort).
        reasoning_price_minor_per_mtok: 10_000_000,
        reasoning: true,
        max_output_tokens_per_second: REASONING_TOKENS_PER_SECOND,
        // GPT-5 bills a high-detail image at 70 + 140 per 512-px tile (at most 8: 1,190); 2,000 bounds it.
        max_input_tokens_per_image: 2_000,
        // OpenAI's built-in web search: $10 per 1,000 calls (Codex offers the tool on every request).
        web_search_price_minor: 10_000,
        max_input_tokens_per_web_search: WEB_SEARCH_TOKENS,
        // OpenAI bills a PDF page as an image of it plus its text.
        max_input_tokens_per_pdf_page: PDF_PAGE_TOKENS,
        deployments: [
          { provider: "fake-openai", upstream_model: "fake-gpt", priority: 0 },
          { provider: "fake-backup", upstream_model: "fake-gpt-backup", priority: 1 },
        ],
      },
      {
        // Claude Sonnet 4.5's real limits: 200k window, 64k output (Claude Code asks for 32k by default).
        id: "gw-claude",
        status: "published",
        routes: ["chat", "messages"],
        context_window: 200_000,
        max_output_tokens: 64_000,
        input_price_minor_per_mtok: 800_000,
        output_price_minor_per_mtok: 4_000_000,
        // Anthropic-style: cache reads at 0.1×, 5-minute cache writes at 1.25× the input price.
        cached_input_price_minor_per_mtok: 80_000,
        cache_write_price_minor_per_mtok: 1_000_000,
        // Anthropic's web search: $10 per 1,000 searches (its results billed as input tokens besides).
        web_search_price_minor: 10_000,
        max_input_tokens_per_web_search: WEB_SEARCH_TOKENS,
        // Anthropic bills a PDF page as an image of it plus its text (~1,500–3,000 tokens).
        max_input_tokens_per_pdf_page: PDF_PAGE_TOKENS,
        // Anthropic adds a tool-use system prompt when tools are offered (Claude 4: 346 tokens with tool_choice auto).
        tool_prompt_tokens: 346,
        // Extended thinking: Claude 4 models stream a summary of their thinking and bill all of it
        // (as output: no reasoning price of its own).
        reasoning: true,
        max_output_tokens_per_second: REASONING_TOKENS_PER_SECOND,
        // Anthropic bills an image at about width × height / 750 tokens, one above ~1,600 scaled down first.
        max_input_tokens_per_image: 2_000,
        // The betas Claude Code sends (2.1.331), which change what the model may do, not what a token
        // costs; any other is dropped before the request leaves (docs/providers.md, "Anthropic betas").
        anthropic_betas: CLAUDE_CODE_BETAS,
        deployments: [{ provider: "fake-anthropic", upstream_model: "fake-claude", priority: 0 }],
      },
      {
        id: "gw-gemini",
        status: "published",
        routes: ["chat", "messages"],
        // Gemini 2.5 Pro's real limits: a 1M window, 65,536 output tokens (Claude Code asks for 32k by default).
        context_window: 1_048_576,
        max_output_tokens: 65_536,
        // Prices of no other demo model, so a bill shows which one was used. Gemini bills thinking at
        // the output price (no reasoning price: the default) and cache reads at a quarter of the input.
        input_price_minor_per_mtok: 350_000,
        output_price_minor_per_mtok: 2_800_000,
        cached_input_price_minor_per_mtok: 87_500,
        // Like Gemini 2.5 Pro: a prompt above 200k tokens prices the whole request higher (input 2×, output 1.5×).
        long_context_threshold_tokens: 200_000,
        long_context_input_price_minor_per_mtok: 700_000,
        long_context_output_price_minor_per_mtok: 4_200_000,
        // Gemini 2.5 Pro always thinks (its thinking billed as output; the stream carries a summary at most).
        reasoning: true,
        max_output_tokens_per_second: REASONING_TOKENS_PER_SECOND,
        // Gemini counts 258 tokens per 768-px tile of an image, which is scaled to fit 3072 × 3072 first: at most 16 tiles.
        max_input_tokens_per_image: 4_128,
        // Gemini bills a PDF page at 258 tokens, a second of video (with its audio) at 263 (declared
        // rounded up), and fetches a URL part (a video, a YouTube link) itself: at most its window.
        // No web search price, so no web search bound.
        max_input_tokens_per_pdf_page: 258,
        max_input_tokens_per_media_second: 300,
        max_input_tokens_per_url_part: 1_048_576,
        deployments: [{ provider: "fake-gemini", upstream_model: "fake-gemini", priority: 0 }],
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
        default_image_size: "1024x1024",
        deployments: [{ provider: "fake", upstream_model: "fake-image", priority: 0 }],
      },
      // Video: prices are minor credit units per second of output.
      videoModel("gw-video", "text-to-video", [{ provider: "fake", upstream_model: "fake-video", priority: 0 }], { durations: [4, 8, 12], resolutions: ["720p", "1080p"], audio: false }),
      videoModel("gw-video-i2v", "image-to-video", [{ provider: "fake-fal", upstream_model: "fake-ai/video/image-to-video", priority: 0 }], {
        durations: [5, 10],
        resolutions: ["720p", "1080p"],
        audio: true,
      }),
      videoModel("gw-video-ref", "reference-to-video", [{ provider: "fake-fal", upstream_model: "fake-ai/video/reference-to-video", priority: 0 }], {
        durations: [5],
        resolutions: ["720p"],
        audio: false,
        max_images: 4,
      }),
      videoModel("gw-video-edit", "video-edit", [{ provider: "fake-fal", upstream_model: "fake-ai/video/edit", priority: 0 }], { durations: [5], resolutions: ["720p"], audio: false }),
    ],
    // The fake upstream's MCP server (docs/mcp.md): the tools the gateway offers from it (`secret_admin` stays unlisted).
    mcp_servers: [
      {
        name: "demo-tools",
        url: `${fakeUpstreamUrl}/mcp`,
        credential_ref: "FAKE_UPSTREAM_API_KEY",
        tools: [{ name: "echo" }, { name: "slow_echo" }, { name: "big" }, { name: "fail" }, { name: "explode" }, { name: "shifty" }],
      },
    ],
  };
}

function videoModel(
  id: string,
  kind: string,
  deployments: Array<{ provider: string; upstream_model: string; priority: number }>,
  o: { durations: number[]; resolutions: string[]; audio: boolean; max_images?: number },
) {
  return {
    id,
    status: "published",
    routes: ["video"],
    context_window: 0,
    max_output_tokens: 0,
    input_price_minor_per_mtok: 0,
    output_price_minor_per_mtok: 0,
    video: {
      kind,
      durations: o.durations,
      resolutions: o.resolutions,
      aspect_ratios: ["16:9", "9:16", "1:1"],
      audio: o.audio,
      max_images: o.max_images ?? 0,
      prices: [
        { resolution: "720p", price_minor_per_second: 100_000, audio_price_minor_per_second: o.audio ? 20_000 : 0 },
        { resolution: "*", price_minor_per_second: 250_000, audio_price_minor_per_second: o.audio ? 50_000 : 0 },
      ],
    },
    deployments,
  };
}

export const DEMO_MODELS = ["gw-chat-mini", "gw-chat-large", "gw-gpt", "gw-claude", "gw-gemini", "gw-embed-small", "gw-image", "gw-video", "gw-video-i2v", "gw-video-ref", "gw-video-edit"];
export const FAKE_UPSTREAM_API_KEY = "fake-upstream-local-key";
/** The demo catalog's MCP servers, enabled for the demo organization. */
export const DEMO_MCP_SERVERS = ["demo-tools"];
