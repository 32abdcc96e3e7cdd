// The public API's JSON answers as the tests read them (fetch's `json()` is `unknown`).

/** Every error response: the spec's error object, with the request id. */
export interface ErrorBody {
  error: { code: string; message: string; type: string; param?: string | null; request_id?: string; allowed_models?: string[] };
}

/** `GET /v1/usage/{id}`. */
export interface UsageBody {
  object: "usage";
  request_id: string;
  model: string;
  route: string;
  provider: string;
  stream: boolean;
  usage: {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
    cached_input_tokens: number;
    cache_creation_input_tokens: number;
    reasoning_tokens: number;
    estimated: boolean;
    /** How the counts were obtained (docs/billing.md, "Token accounting"). */
    basis: "reported" | "estimated" | "drained" | "bounded";
  };
  line_items: unknown[];
  /** Guardrail outcomes in rule order. */
  guardrails: { plugin: string; name?: string; outcome: string }[];
  /** Minor credit units. */
  cost_credits_minor: number;
  /** The catalog version whose prices were applied. */
  catalog_version: number | null;
  /** HTTP status the caller got. */
  status: number;
  /** Every upstream attempt (docs/billing.md, "Attempts and who pays"). */
  attempts: AttemptBody[];
}

export interface AttemptBody {
  attempt: number;
  provider: string;
  upstream_model: string;
  status: number;
  outcome: "served" | "failed" | "timeout" | "client_gone" | "cut";
  input_tokens: number;
  output_tokens: number;
  estimated: boolean;
  cost_minor: number;
  payer: "caller" | "operator" | "none";
  duration_ms: number;
}

/** `GET /v1/trial-policy`. */
export interface TrialPolicyBody {
  version: number;
  scope: string;
  allowed_models: string[];
  unlock_topup_minor: number;
  policy_hash: string;
}

/** `GET /v1/models`. */
export interface ModelsBody {
  data: { id: string }[];
}

/**
 * A body a test walks freely (many routes, success or error): a wrong path fails the assertion
 * at run time, which is the check the test makes.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; named so the escape is visible and in one place.
export type AnyBody = any;
