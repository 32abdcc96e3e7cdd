import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { LEDGER_BALANCE_SUBJECT, LedgerBalanceV1, decodeEvent } from "@gateway/events";
import type { ControlContext } from "./context.js";

/**
 * Ends an organization's trial when its lifetime top-ups reach the trial policy's threshold: the
 * ledger announces the balance, this flips the org and announces the change, and every data-plane
 * replica evicts the org's keys.
 */
export function subscribeTrialUnlock(ctx: ControlContext, nc: NatsConnection): Subscription {
  return nc.subscribe(LEDGER_BALANCE_SUBJECT, {
    callback: (err, msg) => {
      if (err) return;
      const ev = decodeEvent(LedgerBalanceV1, msg.data);
      if (!ev) return;
      void unlockIfDue(ctx, ev.org_id, ev.topped_up_minor).catch((e: unknown) => ctx.log.warn({ err: e, org_id: ev.org_id }, "trial unlock failed"));
    },
  });
}

export async function unlockIfDue(ctx: ControlContext, orgId: string, toppedUpMinor: number): Promise<boolean> {
  const policy = await ctx.db.selectFrom("trial_policy").select("unlock_topup_minor").where("id", "=", 1).executeTakeFirstOrThrow();
  if (toppedUpMinor < policy.unlock_topup_minor) return false;
  const r = await ctx.db.updateTable("organizations").set({ in_trial: false }).where("id", "=", orgId).where("in_trial", "=", true).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  ctx.log.info({ org_id: orgId }, "trial ended by top-up");
  ctx.publishChange({ kind: "org", id: orgId });
  return true;
}
