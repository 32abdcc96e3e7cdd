import { z } from "zod";
import { GatewayError } from "@gateway/errors";

/** `messages[0].role` from a zod issue path: the spec's `param`. */
function paramOf(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/**
 * Validates a request body against a route's schema: the first problem becomes a 400
 * `invalid_request` with the schema's message and the offending field as `param`. Schemas are loose
 * objects: fields the gateway does not read pass through to the provider unchanged, as the
 * reference API would take them.
 */
export function parseBody<T extends z.ZodType>(schema: T, raw: unknown, what = "a JSON object (Content-Type: application/json)"): z.infer<T> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new GatewayError("invalid_request", `Request body must be ${what}.`);
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const param = paramOf(issue.path);
  throw new GatewayError("invalid_request", issue.message, param ? { param } : {});
}

/** A public model id, the same rule on every route. */
export const modelId = z
  .string({ error: "'model' is required: a public model id (string, 1 to 256 characters)." })
  .min(1, "'model' is required: a public model id (string, 1 to 256 characters).")
  .max(256, "'model' is required: a public model id (string, 1 to 256 characters).");

/** An optional positive integer (null counts as absent, as the reference APIs accept). */
export const positiveInt = (field: string, max?: number) => {
  const msg = max ? `'${field}' must be an integer from 1 to ${max}.` : `'${field}' must be a positive integer.`;
  const n = z.number({ error: msg }).int(msg).min(1, msg);
  return (max ? n.max(max, msg) : n).nullish();
};

/**
 * The `service_tier` values a request may ask an OpenAI deployment for: `priority` is billed above
 * the catalog's prices and `scale` spends the operator's reserved capacity, which neither the hold
 * nor the bill covers. Chat completions and the Responses API refuse the others alike.
 */
export const SERVICE_TIERS = ["auto", "default", "flex"] as const;
export const SERVICE_TIER_REFUSAL = "'service_tier' is not supported: only 'auto', 'default' and 'flex' are accepted.";
export const acceptedServiceTier = (v: unknown): boolean => (SERVICE_TIERS as readonly unknown[]).includes(v);
