import { sql } from "@gateway/db";

/**
 * What refunds gave back of the usage record `u` of a query (`… FROM usage_records u`), minor units
 * (NULL: nothing): one probe of the refunds' index per row, in the query that reads the record.
 */
export const REFUNDED = sql<string | null>`(SELECT sum(a.amount_minor) FROM adjustments a WHERE a.kind = 'refund' AND a.request_id = u.request_id AND a.org_id = u.org_id)`;
