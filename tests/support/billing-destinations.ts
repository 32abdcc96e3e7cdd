import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Local stand-ins for the billing systems the meter connectors push to (gatewayctl meters push;
 * docs/billing.md, "Pushing usage to a billing system"): the real ones cannot be reached from the
 * development machines. Each enforces what its documentation states of the calls the connector
 * makes — authentication, the fields and their types, its deduplication and its window, its limits —
 * and keeps what it accepted, so a test can count what a customer would be billed. Their clock is the
 * test's (`advance`), and `loseAnswers(n)` makes the next n accepted requests answer 500 after they
 * were taken, as a lost acknowledgement does.
 */
export interface Destination {
  url: string;
  /** Moves the stand-in's clock (its deduplication window) forward. */
  advance(ms: number): void;
  /** The next n requests are taken, then answered 500. */
  loseAnswers(n: number): void;
  /** Requests it answered, by status. */
  answered: Map<number, number>;
  close(): Promise<void>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Base {
  now(): number;
  lose: number;
  answered: Map<number, number>;
}

function serve(key: string, base: Base, handle: (req: IncomingMessage, body: string, reply: (status: number, body: unknown, type?: string) => void) => void): Promise<Server> {
  const server = createServer((req, res: ServerResponse) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const reply = (status: number, payload: unknown, type = "application/json") => {
        const lost = status < 300 && base.lose > 0;
        if (lost) base.lose--;
        const code = lost ? 500 : status;
        base.answered.set(code, (base.answered.get(code) ?? 0) + 1);
        res.writeHead(code, { "content-type": type }).end(lost ? '{"error":{"message":"internal error"}}' : payload === undefined ? "" : JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${key}`) return reply(401, { error: { message: "Invalid API key provided" } });
      handle(req, body, reply);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function destination(server: Server, base: Base, advanced: { ms: number }): Destination {
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    advance: (ms) => void (advanced.ms += ms),
    loseAnswers: (n) => void (base.lose = n),
    answered: base.answered,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A meter event Stripe took. */
export interface StripeMeterEvent {
  event_name: string;
  identifier: string;
  timestamp: number;
  customer: string;
  value: number;
}

/**
 * Stripe Billing, v1 meter events and customer balance transactions (docs.stripe.com/api/billing/meter-event,
 * /api/customer_balance_transactions): form-encoded bodies, a secret key; a meter event names a
 * configured meter's `event_name`, an existing customer under the meter's customer mapping key
 * (`payload[stripe_customer_id]`) and a whole, non-negative `payload[value]`; its `identifier` is
 * unique over a rolling 24 hours (a repeat is a 400); its `timestamp` no older than 35 days nor more
 * than 5 minutes ahead. A balance transaction takes a whole `amount` in the currency's minor units
 * (negative: a credit) and an `Idempotency-Key`, whose repeat within 24 hours answers the first result.
 * At most 100 requests a second (429 beyond).
 */
export async function stripeStandIn(o: {
  key: string;
  eventName: string;
  customers: string[];
}): Promise<Destination & { events: StripeMeterEvent[]; balance: Map<string, { amount: number; currency: string; key: string }[]> }> {
  const advanced = { ms: 0 };
  const base: Base = { now: () => Date.now() + advanced.ms, lose: 0, answered: new Map() };
  const events: StripeMeterEvent[] = [];
  const seen = new Map<string, number>();
  const balance = new Map<string, { amount: number; currency: string; key: string }[]>();
  const idempotent = new Map<string, { at: number; body: unknown }>();
  const second = { at: 0, n: 0 };
  const invalid = (message: string, param?: string) => ({ error: { type: "invalid_request_error", message, ...(param ? { param } : {}) } });
  const server = await serve(o.key, base, (req, body, reply) => {
    const now = base.now();
    if (Math.floor(now / 1000) !== second.at) Object.assign(second, { at: Math.floor(now / 1000), n: 0 });
    if (++second.n > 100) return reply(429, { error: { type: "rate_limit_error", message: "Too many requests" } });
    if (req.headers["content-type"] !== "application/x-www-form-urlencoded") return reply(400, invalid("Invalid request: expected application/x-www-form-urlencoded"));
    const p = new URLSearchParams(body);
    if (req.url === "/v1/billing/meter_events") {
      const name = p.get("event_name");
      if (name !== o.eventName) return reply(400, invalid(`No active meter was found for event_name '${name}'`, "event_name"));
      const customer = p.get("payload[stripe_customer_id]") ?? "";
      if (!o.customers.includes(customer)) return reply(400, invalid(`No such customer: '${customer}'`, "payload[stripe_customer_id]"));
      const value = p.get("payload[value]") ?? "";
      if (!/^\d+$/.test(value)) return reply(400, invalid("Meter event value must be a whole number and cannot be negative", "payload[value]"));
      const ts = Number(p.get("timestamp") ?? Math.floor(now / 1000));
      if (!Number.isInteger(ts) || ts * 1000 < now - 35 * DAY_MS || ts * 1000 > now + 5 * 60_000) {
        return reply(400, invalid("Timestamp must be within the past 35 days and no more than 5 minutes in the future", "timestamp"));
      }
      const identifier = p.get("identifier") ?? `gen_${events.length}`;
      if (identifier.length > 100) return reply(400, invalid("identifier must be at most 100 characters", "identifier"));
      const first = seen.get(identifier);
      if (first !== undefined && now - first < DAY_MS) return reply(400, invalid(`An event already exists with identifier ${identifier}.`, "identifier"));
      seen.set(identifier, now);
      events.push({ event_name: name, identifier, timestamp: ts, customer, value: Number(value) });
      return reply(200, { object: "billing.meter_event", event_name: name, identifier, timestamp: ts, payload: { stripe_customer_id: customer, value } });
    }
    const m = /^\/v1\/customers\/([^/]+)\/balance_transactions$/.exec(req.url ?? "");
    if (m) {
      const customer = decodeURIComponent(m[1]!);
      if (!o.customers.includes(customer)) return reply(404, invalid(`No such customer: '${customer}'`));
      const key = String(req.headers["idempotency-key"] ?? "");
      const prior = key ? idempotent.get(key) : undefined;
      if (prior && now - prior.at < DAY_MS) return reply(200, prior.body);
      if (!/^-?\d+$/.test(p.get("amount") ?? "")) return reply(400, invalid("Invalid integer: amount", "amount"));
      const currency = p.get("currency") ?? "";
      if (!/^[a-z]{3}$/.test(currency)) return reply(400, invalid("Invalid currency", "currency"));
      const list = balance.get(customer) ?? [];
      list.push({ amount: Number(p.get("amount")), currency, key });
      balance.set(customer, list);
      const answer = { object: "customer_balance_transaction", amount: Number(p.get("amount")), currency, customer };
      if (key) idempotent.set(key, { at: now, body: answer });
      return reply(200, answer);
    }
    reply(404, invalid(`Unrecognized request URL (POST: ${req.url})`));
  });
  return { ...destination(server, base, advanced), events, balance };
}

/** An event Lago took. */
export interface LagoEvent {
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp: number;
  properties: Record<string, unknown>;
  precise_total_amount_cents?: string;
}

/**
 * Lago's events API (getlago.com/docs/api-reference/events): JSON `{event: {...}}` (or `{events: [...]}`
 * on /batch, at most 100), a bearer API key; `transaction_id`, an active `external_subscription_id`
 * and a billable metric `code` are required, `timestamp` a number of seconds, `properties` an object,
 * `precise_total_amount_cents` a decimal string. A transaction id is kept once per subscription, for
 * good: a repeat is 422 `{"transaction_id": ["value_already_exist"]}`.
 */
export async function lagoStandIn(o: { key: string; code: string; subscriptions: string[] }): Promise<Destination & { events: LagoEvent[] }> {
  const advanced = { ms: 0 };
  const base: Base = { now: () => Date.now() + advanced.ms, lose: 0, answered: new Map() };
  const events: LagoEvent[] = [];
  const seen = new Set<string>();
  const validation = (details: Record<string, string[]>) => ({ status: 422, error: "Unprocessable Entity", code: "validation_errors", error_details: details });
  const check = (e: Partial<LagoEvent>): Record<string, string[]> | undefined => {
    if (typeof e.transaction_id !== "string" || !e.transaction_id) return { transaction_id: ["value_is_mandatory"] };
    if (!o.subscriptions.includes(String(e.external_subscription_id))) return { external_subscription_id: ["subscription_not_found"] };
    if (e.code !== o.code) return { code: ["billable_metric_not_found"] };
    if (typeof e.timestamp !== "number") return { timestamp: ["invalid_format"] };
    if (e.properties !== undefined && (typeof e.properties !== "object" || e.properties === null)) return { properties: ["invalid_format"] };
    if (e.precise_total_amount_cents !== undefined && !/^-?\d+(\.\d+)?$/.test(e.precise_total_amount_cents)) return { precise_total_amount_cents: ["invalid_value"] };
    if (seen.has(`${e.external_subscription_id}/${e.transaction_id}`)) return { transaction_id: ["value_already_exist"] };
    return undefined;
  };
  const server = await serve(o.key, base, (req, body, reply) => {
    let j: { event?: Partial<LagoEvent>; events?: Partial<LagoEvent>[] };
    try {
      j = JSON.parse(body) as typeof j;
    } catch {
      return reply(400, { status: 400, error: "Bad Request", code: "bad_request" });
    }
    const batch = req.url === "/api/v1/events/batch" ? j.events : req.url === "/api/v1/events" && j.event ? [j.event] : undefined;
    if (!batch) return reply(req.url?.startsWith("/api/v1/events") ? 400 : 404, { status: 400, error: "Bad Request" });
    if (batch.length > 100) return reply(422, validation({ events: ["too_many_events"] }));
    for (const e of batch) {
      const problem = check(e);
      if (problem) return reply(422, validation(problem));
    }
    for (const e of batch) {
      seen.add(`${e.external_subscription_id}/${e.transaction_id}`);
      events.push(e as LagoEvent);
    }
    reply(200, req.url === "/api/v1/events" ? { event: batch[0] } : { events: batch });
  });
  return { ...destination(server, base, advanced), events };
}

/** A CloudEvent OpenMeter took. */
export interface CloudEvent {
  specversion: string;
  id: string;
  source: string;
  type: string;
  subject: string;
  time?: string;
  data?: Record<string, unknown>;
}

/**
 * OpenMeter's ingest API (openmeter.io/docs: POST /api/v1/events): a CloudEvent
 * (`application/cloudevents+json`) or a batch (`application/cloudevents-batch+json`), a bearer token;
 * `specversion` "1.0", `id`, `source`, `type` and `subject` required, `time` RFC 3339, `data` an
 * object. Events are deduplicated on (id, source) within its window (32 days here): a repeat is
 * accepted and not counted. 204 on success; a problem document (400) otherwise.
 */
export async function openmeterStandIn(o: { key: string; type: string }): Promise<Destination & { events: CloudEvent[] }> {
  const advanced = { ms: 0 };
  const base: Base = { now: () => Date.now() + advanced.ms, lose: 0, answered: new Map() };
  const events: CloudEvent[] = [];
  const seen = new Map<string, number>();
  const problem = (detail: string) => ({ type: "about:blank", title: "Bad Request", status: 400, detail });
  const server = await serve(o.key, base, (req, body, reply) => {
    if (req.url !== "/api/v1/events") return reply(404, problem("not found"), "application/problem+json");
    const type = req.headers["content-type"];
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return reply(400, problem("invalid JSON"), "application/problem+json");
    }
    const batch = type === "application/cloudevents-batch+json" && Array.isArray(parsed) ? (parsed as CloudEvent[]) : type === "application/cloudevents+json" ? [parsed as CloudEvent] : undefined;
    if (!batch) return reply(400, problem(`unsupported content type ${type}`), "application/problem+json");
    for (const e of batch) {
      if (e.specversion !== "1.0") return reply(400, problem("specversion must be 1.0"), "application/problem+json");
      for (const f of ["id", "source", "type", "subject"] as const) if (typeof e[f] !== "string" || !e[f]) return reply(400, problem(`${f} is required`), "application/problem+json");
      if (e.type !== o.type) return reply(400, problem(`no meter for event type ${e.type}`), "application/problem+json");
      if (e.time !== undefined && Number.isNaN(Date.parse(e.time))) return reply(400, problem("time must be RFC 3339"), "application/problem+json");
      if (e.data !== undefined && (typeof e.data !== "object" || e.data === null)) return reply(400, problem("data must be an object"), "application/problem+json");
    }
    const now = base.now();
    for (const e of batch) {
      const k = `${e.source}\u0000${e.id}`;
      const first = seen.get(k);
      if (first !== undefined && now - first < 32 * DAY_MS) continue;
      seen.set(k, now);
      events.push(e);
    }
    reply(204, undefined);
  });
  return { ...destination(server, base, advanced), events };
}
