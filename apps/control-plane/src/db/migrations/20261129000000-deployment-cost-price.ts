import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * What a deployment's provider charges the operator, minor credit units per million input and
 * output tokens (attempt records and margin, docs/billing.md); NULL = the model's price.
 */
export const deploymentCostPrice: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE deployments ADD COLUMN cost_input_price_minor_per_mtok bigint CHECK (cost_input_price_minor_per_mtok >= 0);
      ALTER TABLE deployments ADD COLUMN cost_output_price_minor_per_mtok bigint CHECK (cost_output_price_minor_per_mtok >= 0);
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE deployments DROP COLUMN cost_input_price_minor_per_mtok, DROP COLUMN cost_output_price_minor_per_mtok`.execute(db);
  },
};
