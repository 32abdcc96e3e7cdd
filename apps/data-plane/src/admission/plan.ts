import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { Capability, ProviderAdapter, UpstreamTarget } from "../providers/index.js";
import { PROVIDERS } from "../providers/table.js";
import { CircuitBreaker } from "../providers/circuit-breaker.js";
import { orderDeployments } from "./weights.js";
import { deploymentKey } from "../routing/session-key.js";

/** One deployment a request may go to, with the adapter for the route's capability. */
export interface Planned<C extends Capability> {
  target: UpstreamTarget;
  adapter: NonNullable<ProviderAdapter[C]>;
}

/**
 * The model's deployments that can serve `capability` on this replica, in routing order: the
 * provider's kind has that capability and its credential is present; cooled-down deployments go
 * last rather than away; `pinned` (a session's deployment, routing/session-pins.ts), first when its
 * breaker is closed. Planned before any credit is held: a request with nowhere to go is a 503 that
 * holds nothing.
 */
export function plan<C extends Capability>(ctx: DataPlaneContext, model: Model, capability: C, pinned?: string): Planned<C>[] {
  const out: Planned<C>[] = [];
  for (const d of orderDeployments(model.deployments)) {
    const provider = ctx.catalog.current.providers.get(d.provider);
    const adapter = provider && PROVIDERS[provider.kind].capabilities[capability];
    if (!provider || !adapter) continue;
    const apiKey = provider.credential_ref ? ctx.config.resolveCredential(provider.credential_ref) : undefined;
    if (provider.credential_ref && !apiKey) continue;
    out.push({ target: { provider, deployment: d, apiKey }, adapter: adapter as NonNullable<ProviderAdapter[C]> });
  }
  const closed = out.filter((p) => !ctx.breaker.isOpen(CircuitBreaker.key(p.target.provider.code, p.target.deployment.upstream_model)));
  if (out.length === 0) throw new GatewayError("model_unavailable", `The model '${model.id}' has no configured provider deployment for this route on this gateway.`);
  if (closed.length === 0) return out;
  // A session pinned to a deployment whose breaker is closed goes there first; the rest stay its fallbacks.
  if (pinned !== undefined && closed.length > 1) {
    const at = closed.findIndex((p) => deploymentKey(p.target.provider.code, p.target.deployment.upstream_model) === pinned);
    if (at > 0) closed.unshift(...closed.splice(at, 1));
  }
  return closed;
}
