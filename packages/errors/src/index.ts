/**
 * The one closed set of error codes the gateway speaks, each with its HTTP status, its gRPC status
 * and its public `type`. Mapping to a wire status happens only at the edges (HTTP error middleware,
 * gRPC handlers); everything inside throws or returns a {@link GatewayError}.
 */

/** gRPC status codes (numeric, as on the wire) used by the mapping below. */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcStatusCode = (typeof GrpcStatus)[keyof typeof GrpcStatus];

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "insufficient_credits_error"
  | "request_too_large"
  | "rate_limit_error"
  | "api_error"
  | "upstream_error"
  | "overloaded_error";

interface CodeSpec {
  readonly http: number;
  readonly grpc: GrpcStatusCode;
  readonly type: ErrorType;
}

const spec = (http: number, grpc: GrpcStatusCode, type: ErrorType): CodeSpec => ({ http, grpc, type });

/** Every public error code. Adding one here is the only way to make a new code. */
export const ERROR_CODES = {
  invalid_request: spec(400, GrpcStatus.INVALID_ARGUMENT, "invalid_request_error"),
  invalid_json: spec(400, GrpcStatus.INVALID_ARGUMENT, "invalid_request_error"),
  model_not_supported_for_route: spec(400, GrpcStatus.INVALID_ARGUMENT, "invalid_request_error"),
  context_length_exceeded: spec(400, GrpcStatus.INVALID_ARGUMENT, "invalid_request_error"),
  guardrail_denied: spec(400, GrpcStatus.INVALID_ARGUMENT, "invalid_request_error"),
  guardrail_requires_non_streaming: spec(400, GrpcStatus.INVALID_ARGUMENT, "invalid_request_error"),
  missing_api_key: spec(401, GrpcStatus.UNAUTHENTICATED, "authentication_error"),
  invalid_api_key: spec(401, GrpcStatus.UNAUTHENTICATED, "authentication_error"),
  revoked_api_key: spec(401, GrpcStatus.UNAUTHENTICATED, "authentication_error"),
  insufficient_credits: spec(402, GrpcStatus.FAILED_PRECONDITION, "insufficient_credits_error"),
  budget_exceeded: spec(402, GrpcStatus.FAILED_PRECONDITION, "insufficient_credits_error"),
  /** The key's own model allowlist excludes the model. */
  model_not_allowed: spec(403, GrpcStatus.PERMISSION_DENIED, "permission_error"),
  /** The key's organization has not enabled the model (an operator's `models enable`). */
  model_not_enabled: spec(403, GrpcStatus.PERMISSION_DENIED, "permission_error"),
  /** The organization is in trial and the trial policy's allowlist leaves the model out. */
  model_not_in_trial: spec(403, GrpcStatus.PERMISSION_DENIED, "permission_error"),
  route_not_allowed: spec(403, GrpcStatus.PERMISSION_DENIED, "permission_error"),
  forbidden: spec(403, GrpcStatus.PERMISSION_DENIED, "permission_error"),
  not_found: spec(404, GrpcStatus.NOT_FOUND, "not_found_error"),
  model_not_found: spec(404, GrpcStatus.NOT_FOUND, "not_found_error"),
  already_exists: spec(409, GrpcStatus.ALREADY_EXISTS, "invalid_request_error"),
  /** A change made onto a version that has moved on meanwhile (the console's catalog editor): read again, then apply. */
  conflict: spec(409, GrpcStatus.ABORTED, "invalid_request_error"),
  request_too_large: spec(413, GrpcStatus.RESOURCE_EXHAUSTED, "request_too_large"),
  unsupported_media_type: spec(415, GrpcStatus.INVALID_ARGUMENT, "invalid_request_error"),
  /** GET /v1/responses without `Upgrade: websocket` (the WebSocket mode asked for without the upgrade). */
  websocket_not_supported: spec(426, GrpcStatus.UNIMPLEMENTED, "invalid_request_error"),
  /**
   * A Responses WebSocket connection that has carried its turns (or lived its time) takes no more:
   * OpenAI's code, on which Codex opens a new connection and sends the turn again.
   */
  websocket_connection_limit_reached: spec(400, GrpcStatus.FAILED_PRECONDITION, "invalid_request_error"),
  rate_limit_exceeded: spec(429, GrpcStatus.RESOURCE_EXHAUSTED, "rate_limit_error"),
  internal_error: spec(500, GrpcStatus.INTERNAL, "api_error"),
  upstream_error: spec(502, GrpcStatus.UNAVAILABLE, "upstream_error"),
  upstream_timeout: spec(504, GrpcStatus.DEADLINE_EXCEEDED, "upstream_error"),
  model_unavailable: spec(503, GrpcStatus.UNAVAILABLE, "overloaded_error"),
  service_unavailable: spec(503, GrpcStatus.UNAVAILABLE, "overloaded_error"),
  /** A usage record that may still be on its way: the ledger has not applied everything published before the lookup. */
  usage_pending: spec(503, GrpcStatus.FAILED_PRECONDITION, "overloaded_error"),
  /** An internal gRPC caller (the data-plane, gatewayctl) without valid credentials. Never sent to API clients. */
  unauthenticated_caller: spec(401, GrpcStatus.UNAUTHENTICATED, "authentication_error"),
  /** An authenticated internal gRPC caller outside its scope (the data-plane calling TopUp). Never sent to API clients. */
  caller_not_allowed: spec(403, GrpcStatus.PERMISSION_DENIED, "permission_error"),
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** What the caller should do about an error, as the spec's `action` field. */
export type ErrorAction = "top_up" | "contact_org_admin";

export interface ErrorContext {
  /** Public model ids the key may use on this route (403 on model policy). */
  allowed_models?: string[];
  action?: ErrorAction;
  help_url?: string;
  /** Name of the offending request field, for 400s. */
  param?: string;
  /** Seconds the caller should wait before retrying (sets `Retry-After`). */
  retry_after_s?: number;
  /** Which budget refused a request (budget_exceeded): the organization's, the key's, its project's or the end user's. */
  budget?: BudgetKind;
  /** The provider's HTTP status an upstream failure was mapped from (the attempt record's; never sent to callers). */
  upstream_status?: number;
}

export type BudgetKind = "organization" | "key" | "project" | "end_user";
const BUDGET_KINDS: readonly string[] = ["organization", "key", "project", "end_user"];

/**
 * A budget's scope at the ledger ("org", "key:…", "project:…", "user:…") as a refusal names it: its
 * kind (the error's `budget`) and whose it is, the start of the message ("This API key's …").
 */
export function budgetOfScope(scope: string): { kind: BudgetKind; name: string } {
  if (scope === "org") return { kind: "organization", name: "Your organization's" };
  if (scope.startsWith("key:")) return { kind: "key", name: "This API key's" };
  if (scope.startsWith("project:")) return { kind: "project", name: `Project ${scope.slice(8)}'s` };
  return { kind: "end_user", name: `End user '${scope.slice(5)}''s` };
}

/** The one error class of the gateway: a code from {@link ERROR_CODES}, a message and context. */
export class GatewayError extends Error {
  override readonly name = "GatewayError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly context: ErrorContext = {},
  ) {
    super(message);
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code].http;
  }

  get grpcStatus(): GrpcStatusCode {
    return ERROR_CODES[this.code].grpc;
  }

  get type(): ErrorType {
    return ERROR_CODES[this.code].type;
  }
}

/** A 400 `invalid_request` naming the offending field (`param`, as the reference APIs do). */
export const invalidParam = (param: string, message: string): GatewayError => new GatewayError("invalid_request", message, { param });

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}

/** The spec's error object, as sent on the wire. */
export interface ErrorBody {
  error: {
    message: string;
    type: ErrorType;
    code: ErrorCode;
    request_id?: string;
    param?: string;
    action?: ErrorAction;
    help_url?: string;
    allowed_models?: string[];
    budget?: BudgetKind;
  };
}

export function toErrorBody(err: GatewayError, requestId?: string): ErrorBody {
  const { allowed_models, action, help_url, param, budget } = err.context;
  return {
    error: {
      message: err.message,
      type: err.type,
      code: err.code,
      ...(param !== undefined && { param }),
      ...(action !== undefined && { action }),
      ...(help_url !== undefined && { help_url }),
      ...(allowed_models !== undefined && { allowed_models }),
      ...(budget !== undefined && { budget }),
      ...(requestId !== undefined && { request_id: requestId }),
    },
  };
}

/** Trailing metadata key carrying a GatewayError's context (JSON) across gRPC. */
export const ERROR_CONTEXT_METADATA = "x-error-context";

/** The context as it travels: only its known fields, so nothing else rides along. */
export function encodeErrorContext(c: ErrorContext): string | undefined {
  const out: ErrorContext = {};
  if (c.action !== undefined) out.action = c.action;
  if (c.help_url !== undefined) out.help_url = c.help_url;
  if (c.param !== undefined) out.param = c.param;
  if (c.retry_after_s !== undefined) out.retry_after_s = c.retry_after_s;
  if (c.allowed_models !== undefined) out.allowed_models = c.allowed_models;
  if (c.budget !== undefined) out.budget = c.budget;
  return Object.keys(out).length ? JSON.stringify(out) : undefined;
}

function decodeErrorContext(json: string | undefined): ErrorContext {
  if (!json) return {};
  try {
    const v = JSON.parse(json) as Record<string, unknown>;
    const out: ErrorContext = {};
    if (v.action === "top_up" || v.action === "contact_org_admin") out.action = v.action;
    if (typeof v.help_url === "string") out.help_url = v.help_url;
    if (typeof v.param === "string") out.param = v.param;
    if (typeof v.retry_after_s === "number" && Number.isFinite(v.retry_after_s)) out.retry_after_s = v.retry_after_s;
    if (Array.isArray(v.allowed_models) && v.allowed_models.every((m) => typeof m === "string")) out.allowed_models = v.allowed_models as string[];
    if (typeof v.budget === "string" && BUDGET_KINDS.includes(v.budget)) out.budget = v.budget as BudgetKind;
    return out;
  } catch {
    return {};
  }
}

/**
 * gRPC carries a GatewayError as the status `details` string `code:message` plus its context in
 * trailing metadata (ERROR_CONTEXT_METADATA); this rebuilds the error on the client side, context
 * included, so nothing between a service and the HTTP edge has to re-create it.
 */
export function fromGrpcDetails(details: string, fallback: ErrorCode, contextJson?: string): GatewayError {
  const i = details.indexOf(":");
  const code = i > 0 ? details.slice(0, i) : "";
  if (isErrorCode(code)) return new GatewayError(code, details.slice(i + 1), decodeErrorContext(contextJson));
  return new GatewayError(fallback, details);
}
