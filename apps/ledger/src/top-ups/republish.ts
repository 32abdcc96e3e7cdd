import { sql } from "@gateway/db";
import type { RepublishJournalRequest, RepublishJournalResponseInput } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { sinceOf } from "../rpc/window.js";

/**
 * RepublishJournal (gatewayctl ledger republish --since T; docs/operations.md, "Recovery"): the
 * LEDGER stream was lost, but the journal postings and top-up announcements are marked published.
 * Those made from T on are marked unpublished again, and the outbox (announcer.ts) sends them as it
 * sends new ones: each under its own message id, oldest first. A consumer that already has one
 * keys on its txn_id (docs/billing.md), so publishing again is safe even where the stream was not lost.
 */
export function republishJournal(ctx: LedgerContext) {
  return async (req: RepublishJournalRequest): Promise<RepublishJournalResponseInput> => {
    const since = sinceOf(req);
    const counts = await ctx.db.transaction().execute(async (trx) => {
      // One pass over the journal (no index on its time): more than the services' 10 s on a large one.
      await sql`SELECT set_config('statement_timeout', ${String(30 * 60_000)}, true)`.execute(trx);
      const journal = await sql<{ n: number }>`
        WITH marked AS (UPDATE journal_entries SET published_at = NULL WHERE created_at >= ${since} AND published_at IS NOT NULL RETURNING txn_id)
        SELECT count(DISTINCT txn_id)::bigint AS n FROM marked`.execute(trx);
      const topUps = await sql<{ n: number }>`
        WITH marked AS (UPDATE top_ups SET announced_at = NULL WHERE created_at >= ${since} AND announced_at IS NOT NULL RETURNING id)
        SELECT count(*)::bigint AS n FROM marked`.execute(trx);
      // Alerts, for the control-plane's webhooks (its deliveries deduplicate on the alert id).
      await sql`UPDATE alerts SET announced_at = NULL WHERE created_at >= ${since} AND announced_at IS NOT NULL`.execute(trx);
      return { journal_transactions: journal.rows[0]!.n, top_ups: topUps.rows[0]!.n };
    });
    ctx.onTopUp?.();
    ctx.log.info({ since_ms: req.since_ms, ...counts }, "journal and top-up announcements queued to be published again");
    return counts;
  };
}
