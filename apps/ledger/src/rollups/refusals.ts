/**
 * The model the hourly rollups count a refusal record under (docs/billing.md, "Refusal records"):
 * its own when the data-plane had resolved it for the key (`model_resolved`), else this one label.
 * An unresolved name is whatever the caller sent, so rollup rows named by it would grow with every
 * new name; under the label a caller adds at most one row per key and hour. No catalog model or
 * tool call can be named so (their ids have neither spaces nor parentheses), and the console shows
 * the label as it is.
 *
 * The label is part of the table's meaning: the migration that made refusals count wrote it into
 * apply_refusals, and the book check derives each record's rollup from it. Changing it needs a
 * migration that renames the rows.
 */
export const UNRESOLVED_MODEL = "(unknown model)";

/** SQL: the model under which usage record `r` (a billed record, or a refusal record) is rolled up. */
export const rollupModelOf = (r: string) => `CASE WHEN ${r}.error_code IS NULL OR ${r}.model_resolved THEN ${r}.model ELSE '${UNRESOLVED_MODEL}' END`;
