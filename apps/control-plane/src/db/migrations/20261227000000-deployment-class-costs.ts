import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * What a deployment's provider charges the operator per million cached-input, cache-write and
 * reasoning tokens (docs/billing.md, "Reconciliation"); NULL = the model's price for the class,
 * scaled as the input (output) cost price scales the model's. Nullable columns: no rewrite.
 */
export const deploymentClassCosts: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE deployments
        ADD COLUMN cost_cached_input_price_minor_per_mtok bigint CHECK (cost_cached_input_price_minor_per_mtok >= 0),
        ADD COLUMN cost_cache_write_price_minor_per_mtok bigint CHECK (cost_cache_write_price_minor_per_mtok >= 0),
        ADD COLUMN cost_reasoning_price_minor_per_mtok bigint CHECK (cost_reasoning_price_minor_per_mtok >= 0);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE deployments DROP COLUMN cost_cached_input_price_minor_per_mtok, DROP COLUMN cost_cache_write_price_minor_per_mtok, DROP COLUMN cost_reasoning_price_minor_per_mtok`.execute(
      db,
    );
  },
};
