import { GatewayError } from "@gateway/errors";
import { GuardrailConfigError, parseRulesDocument } from "@gateway/guardrails";
import type { GetGuardrailsRequest, Guardrails, SetGuardrailsRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg } from "../orgs.js";

const MAX_DOCUMENT = 256 * 1024;

/** Replaces an org's rules after validating them; data-planes drop the org's cached keys. */
export function setGuardrails(ctx: ControlContext) {
  return async (req: SetGuardrailsRequest): Promise<Guardrails> => {
    if (req.document.length > MAX_DOCUMENT) throw new GatewayError("invalid_request", `guardrail document is larger than ${MAX_DOCUMENT} bytes`);
    let rules;
    try {
      rules = parseRulesDocument(req.document);
    } catch (err) {
      if (err instanceof GuardrailConfigError) throw new GatewayError("invalid_request", `invalid guardrail rules: ${err.message}`);
      throw err;
    }
    const org = await findOrg(ctx.db, req.org);
    const row = await ctx.db
      .insertInto("guardrail_rules")
      .values({ org_id: org.id, document: req.document, rules: JSON.stringify(rules), version: 1, updated_at: new Date() })
      .onConflict((oc) => oc.column("org_id").doUpdateSet((eb) => ({ document: req.document, rules: JSON.stringify(rules), version: eb("guardrail_rules.version", "+", 1), updated_at: new Date() })))
      .returningAll()
      .executeTakeFirstOrThrow();
    ctx.publishChange({ kind: "org", id: org.id });
    return { org_id: org.id, version: Number(row.version), rules_json: JSON.stringify(rules), document: row.document, rules: rules.length };
  };
}

export function getGuardrails(ctx: ControlContext) {
  return async (req: GetGuardrailsRequest): Promise<Guardrails> => {
    const org = await findOrg(ctx.db, req.org);
    const row = await ctx.db.selectFrom("guardrail_rules").selectAll().where("org_id", "=", org.id).executeTakeFirst();
    if (!row) return { org_id: org.id, version: 0, rules_json: "[]", document: "", rules: 0 };
    const rules = row.rules as unknown[];
    return { org_id: org.id, version: Number(row.version), rules_json: JSON.stringify(rules), document: row.document, rules: rules.length };
  };
}
