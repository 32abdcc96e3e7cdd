import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import { PROVIDER_KINDS } from "@gateway/proto";
import { ROUTES } from "./routes.js";

const count = z.number().int().nonnegative();
/** Ceiling of a provider's max_connections: the ports one replica can open to one address. */
const MAX_CONNECTIONS = 65_535;
const route = z.string().superRefine((r, c) => {
  if (!(ROUTES as readonly string[]).includes(r)) c.addIssue({ code: "custom", message: `invalid route "${r}" (one of ${ROUTES.join(", ")})` });
});

/**
 * The name of an upstream's credential (empty: none sent). The data-plane resolves it only in its
 * own namespace, the variable DATA_PLANE_PROVIDER_KEY_<name> or the file <name> in
 * DATA_PLANE_SECRETS_DIR: a name, never a path, and never one of the services' own variables.
 */
const credentialRef = z
  .string()
  .regex(/^([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$/, "a provider key's name (letters, digits, _ . -; the data-plane reads DATA_PLANE_PROVIDER_KEY_<name> or the file <name> in DATA_PLANE_SECRETS_DIR)")
  .refine((v) => !/^(DATA_PLANE|CONTROL_PLANE|LEDGER|CONSOLE|GATEWAY|NATS)_/.test(v), {
    message: "names a service's own setting: a credential_ref is a provider key's name (the data-plane reads DATA_PLANE_PROVIDER_KEY_<name> or the file <name> in DATA_PLANE_SECRETS_DIR)",
  })
  .default("");
/** The header carrying the credential as is (empty: Authorization: Bearer). */
const authHeader = z
  .string()
  .regex(/^([A-Za-z0-9-]+)?$/, "an HTTP header name")
  .default("");

const ProviderDoc = z
  .object({
    code: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "hub code: lower-case letters, digits, - and _"),
    kind: z.enum(PROVIDER_KINDS),
    base_url: z.string().url(),
    credential_ref: credentialRef,
    auth_header: authHeader,
    /** Connections (HTTP/2: sessions) one data-plane replica opens to the origin; 0 = the default (4096). */
    max_connections: count.max(MAX_CONNECTIONS, `at most ${MAX_CONNECTIONS} (one replica's ports to one address)`).default(0),
    /** HTTP/2 by ALPN; the provider must speak it. */
    http2: z.boolean().default(false),
  })
  .superRefine((p, c) => {
    if (p.http2 && !p.base_url.startsWith("https:")) c.addIssue({ code: "custom", path: ["http2"], message: "HTTP/2 is negotiated over TLS: it needs an https base_url (plain http speaks HTTP/1.1)" });
  });

const DeploymentDoc = z.object({
  provider: z.string().min(1),
  upstream_model: z.string().min(1),
  priority: z.number().int().default(0),
  weight: z.number().int().positive().default(1),
  /** What this provider charges the operator per million input (output) tokens: attempt records and margin; absent = the model's price. */
  cost_input_price_minor_per_mtok: z.number().int().nonnegative().nullable().default(null),
  cost_output_price_minor_per_mtok: z.number().int().nonnegative().nullable().default(null),
  /** Per million cached-input, cache-write and reasoning tokens (reconciliation); absent = the model's price for the class, scaled as the input (output) cost price. */
  cost_cached_input_price_minor_per_mtok: z.number().int().nonnegative().nullable().default(null),
  cost_cache_write_price_minor_per_mtok: z.number().int().nonnegative().nullable().default(null),
  cost_reasoning_price_minor_per_mtok: z.number().int().nonnegative().nullable().default(null),
});

const aspect = z.string().regex(/^[1-9][0-9]{0,2}:[1-9][0-9]{0,2}$/, "an aspect ratio <w>:<h>, e.g. 16:9");
const VideoDoc = z
  .object({
    kind: z.enum(["text-to-video", "image-to-video", "reference-to-video", "video-edit"]),
    durations: z.array(z.number().int().min(1).max(600)).min(1),
    resolutions: z.array(z.string().regex(/^[0-9]{3,4}p$|^[0-9]{3,4}x[0-9]{3,4}$/, "a resolution label like 720p or 1280x720")).min(1),
    aspect_ratios: z.array(aspect).min(1),
    audio: z.boolean().default(false),
    max_images: z.number().int().min(0).max(16).default(0),
    prices: z.array(z.object({ resolution: z.string().min(1).default("*"), price_minor_per_second: count, audio_price_minor_per_second: count.default(0) })).min(1),
  })
  .superRefine((v, c) => {
    if (v.kind === "reference-to-video" && v.max_images < 1) c.addIssue({ code: "custom", path: ["max_images"], message: "a reference-to-video model takes at least one image" });
    for (const r of v.resolutions) {
      if (!v.prices.some((p) => p.resolution === r || p.resolution === "*")) c.addIssue({ code: "custom", path: ["prices"], message: `no price for resolution ${r}` });
    }
  });

const ModelDoc = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,255}$/, "public model id: letters, digits and . _ : / -"),
    status: z.enum(["draft", "published"]).default("published"),
    routes: z.array(route).min(1),
    context_window: count,
    max_output_tokens: count,
    input_price_minor_per_mtok: count,
    output_price_minor_per_mtok: count,
    deployments: z.array(DeploymentDoc).default([]),
    image_prices: z.array(z.object({ size: z.string().min(1).default("*"), quality: z.enum(["standard", "hd", "*"]).default("*"), price_minor: count })).default([]),
    video: VideoDoc.optional(),
    /**
     * Admission counts every image part at this many prompt tokens (providers bill images by size,
     * not bytes). Absent = 0: the model takes no images (the data-plane refuses them, 400 naming
     * `messages`). No default fits every provider (gpt-4o-mini bills up to 48,169 tokens an image),
     * so a vision model declares its own maximum (a model applied before keeps its value until applied again).
     */
    max_input_tokens_per_image: count.default(0),
    /** Every audio part at this many; 0 = the part's bytes (always more than its tokens). */
    max_input_tokens_per_audio: count.default(0),
    default_image_size: z.string().max(32).default(""),
    /**
     * Prompt-cache reads, prompt-cache writes and reasoning tokens, per million. Absent (null) = cache
     * reads and writes at the input price, reasoning at the output price: a catalog that sets none of
     * them bills as before. Applying a document without one resets it to that default.
     */
    cached_input_price_minor_per_mtok: count.nullable().default(null),
    cache_write_price_minor_per_mtok: count.nullable().default(null),
    reasoning_price_minor_per_mtok: count.nullable().default(null),
    /** Per web search (Anthropic's server tool, billed per use). Absent (null): web search is refused. */
    web_search_price_minor: count.nullable().default(null),
    /**
     * Long-context pricing (Gemini above 200k prompt tokens): a request whose prompt is above the
     * threshold is priced, every token, at these input and output prices (cache and reasoning
     * prices scale alike). 0 = none.
     */
    long_context_threshold_tokens: count.default(0),
    long_context_input_price_minor_per_mtok: count.nullable().default(null),
    long_context_output_price_minor_per_mtok: count.nullable().default(null),
    /** Audio prompt (completion) tokens, per million; absent = the model takes (produces) no audio: a 400. */
    audio_input_price_minor_per_mtok: count.nullable().default(null),
    audio_output_price_minor_per_mtok: count.nullable().default(null),
    /**
     * A reasoning model: it may think before and between its visible tokens and may not stream that
     * thinking. A flag, independent of reasoning_price_minor_per_mtok (absent: reasoning billed at
     * the output price).
     */
    reasoning: z.boolean().default(false),
    /**
     * The fastest the model's provider can generate, output tokens per second, reasoning included:
     * conservative (an upper bound). Bounds the hidden reasoning of a stream that ended without the
     * provider's usage (this rate × the time the provider had the request). 0 = not declared.
     */
    max_output_tokens_per_second: count.default(0),
    /**
     * Media bounds, prompt tokens, for inputs whose bytes say little about what providers bill.
     * 0 = not declared: the data-plane refuses that kind of input (a 400 naming it), never a default.
     * Most one PDF page can cost (Anthropic and OpenAI bill a page as an image plus its text,
     * ~1,500–3,000; Gemini 258).
     */
    max_input_tokens_per_pdf_page: count.default(0),
    /** Most one second of video or audio sent as a file part can cost (Gemini: 263 a second of video with its audio, 32 of audio). */
    max_input_tokens_per_media_second: count.default(0),
    /**
     * Most one media part given by a URL whose size the gateway cannot read (a video or document
     * URL, a YouTube link, fetched by the provider: Gemini) can cost: the provider's limit for one part.
     */
    max_input_tokens_per_url_part: count.default(0),
    /** Most the results of one web search bring into the prompt (billed as input beside the per-search fee). */
    max_input_tokens_per_web_search: count.default(0),
    /** Prompt tokens the provider adds when a request offers tools (Anthropic's tool-use system prompt); 0: none. */
    tool_prompt_tokens: count.default(0),
    /**
     * Anthropic betas (`anthropic-beta`) a client may turn on for this model, exactly or by a
     * trailing `*` prefix; the others are not forwarded (docs/providers.md, "Anthropic betas"). A
     * beta the provider bills beyond the catalog's prices does not belong here.
     */
    anthropic_betas: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9.-]{0,99}\*?$/, "a beta name (lowercase letters, digits, . and -), or a prefix ending in *"))
      .max(100)
      .default([]),
  })
  .superRefine((m, c) => {
    if (m.routes.includes("video") && !m.video) c.addIssue({ code: "custom", path: ["video"], message: "a model serving the video route needs a video spec" });
    // A billable request must never be free, and a chat model must be able to answer.
    const chat = m.routes.includes("chat") || m.routes.includes("messages");
    if (chat && m.max_output_tokens < 1) c.addIssue({ code: "custom", path: ["max_output_tokens"], message: "a chat model needs an output limit of at least 1 token" });
    if (chat && m.output_price_minor_per_mtok < 1)
      c.addIssue({ code: "custom", path: ["output_price_minor_per_mtok"], message: "a chat model's output must have a price (a billable request would be free)" });
    if ((chat || m.routes.includes("embeddings")) && m.input_price_minor_per_mtok < 1) {
      c.addIssue({ code: "custom", path: ["input_price_minor_per_mtok"], message: "input tokens must have a price (a billable request would be free)" });
    }
    // The hidden reasoning of a stream that ends without the provider's usage is bounded by this rate.
    if (m.reasoning && (chat || m.routes.includes("responses")) && m.max_output_tokens_per_second < 1) {
      c.addIssue({ code: "custom", path: ["max_output_tokens_per_second"], message: "a reasoning model needs max_output_tokens_per_second" });
    }
    if (m.routes.includes("images")) {
      if (m.image_prices.length === 0) c.addIssue({ code: "custom", path: ["image_prices"], message: "an image model needs at least one image price" });
      for (const [i, p] of m.image_prices.entries())
        if (p.price_minor < 1) c.addIssue({ code: "custom", path: ["image_prices", i, "price_minor"], message: "an image must have a price (a billable request would be free)" });
      if (m.default_image_size && !m.image_prices.some((p) => p.size === m.default_image_size || p.size === "*")) {
        c.addIssue({ code: "custom", path: ["default_image_size"], message: `no image price for the default size ${m.default_image_size}` });
      }
    }
    if (m.video)
      for (const [i, p] of m.video.prices.entries())
        if (p.price_minor_per_second < 1)
          c.addIssue({ code: "custom", path: ["video", "prices", i, "price_minor_per_second"], message: "a video second must have a price (a billable request would be free)" });
  });

/**
 * An MCP server (docs/mcp.md): its Streamable HTTP endpoint (HTTPS; plain HTTP on loopback only
 * for development — the data-plane refuses private addresses as for media URLs), how to
 * authenticate to it, and the tools the gateway exposes, each with a price per call (0: recorded
 * at zero). A tool it does not list is not offered.
 */
const McpServerDoc = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "server name: lower-case letters, digits, - and _"),
  url: z
    .string()
    .url()
    .refine((u) => u.startsWith("https://") || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(u), "an https URL (plain http only on loopback, for development)"),
  credential_ref: credentialRef,
  auth_header: authHeader,
  /** One upstream session per organization (`org`) or per API key (`key`: a server that keeps per-user state). */
  session: z.enum(["org", "key"]).default("org"),
  /** A header that tells the upstream who calls (the org id, or org id/key id); empty: none. */
  identity_header: authHeader,
  /** The credential per organization (org id → credential ref); the others use credential_ref. */
  org_credential_refs: z.record(z.string().regex(/^org_[A-Za-z0-9_-]{1,64}$/, "an organization id (org_…)"), credentialRef).default({}),
  tools: z
    .array(z.object({ name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "a tool name: letters, digits, _ . -"), price_minor: count.default(0) }))
    .min(1, "list the tools the gateway exposes")
    .superRefine((tools, c) => {
      const seen = new Set<string>();
      for (const [i, t] of tools.entries()) {
        if (seen.has(t.name)) c.addIssue({ code: "custom", path: [i, "name"], message: `tool "${t.name}" is listed twice` });
        seen.add(t.name);
      }
    }),
});

export const CatalogDocument = z.object({
  providers: z.array(ProviderDoc).default([]),
  models: z.array(ModelDoc).default([]),
  mcp_servers: z.array(McpServerDoc).default([]),
});
export type CatalogDocument = z.infer<typeof CatalogDocument>;

/** Parses and validates; errors name the path of the bad field (`models[0].routes[1]: …`). */
export function parseCatalogDocument(json: string): CatalogDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new GatewayError("invalid_request", "catalog document is not valid JSON");
  }
  const r = CatalogDocument.safeParse(raw);
  if (!r.success) {
    const msgs = r.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    throw new GatewayError("invalid_request", `invalid catalog document: ${msgs.join("; ")}`);
  }
  return r.data;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(document)";
}
