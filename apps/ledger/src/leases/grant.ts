import type { AcquireLeaseRequest } from "@gateway/proto";

/**
 * What a lease is granted of `available`: the need (min_amount_minor) in full; beyond it what the
 * requests waiting on the lease need (demand_minor) when there is that much, and at most a quarter of
 * what is available besides, so one replica's lease does not strand a small balance or budget that
 * other replicas need; never more than was asked for.
 */
export function grantOf(req: Pick<AcquireLeaseRequest, "amount_minor" | "min_amount_minor" | "demand_minor">, available: number): number {
  const extra = Math.max(0, req.amount_minor - req.min_amount_minor);
  const demand = Math.min(extra, Math.max(0, Number(req.demand_minor ?? 0)));
  const beyond = Math.max(Math.min(extra, Math.floor(available / 4)), Math.min(demand, available - req.min_amount_minor));
  return Math.max(0, Math.min(req.amount_minor, available, req.min_amount_minor + beyond));
}
