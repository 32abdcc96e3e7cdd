import { GatewayError } from "@gateway/errors";
import type { Kysely } from "@gateway/db";
import type { ConsoleMoneyFormat, ConsoleSetMoneyFormatRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import type { ControlDb } from "../db/schema.js";
import { audited } from "./console-audit.js";
import { operatorOf } from "./console-session.js";

/** The money format before an operator sets one (the migration's defaults). */
const DEFAULT_FORMAT: ConsoleMoneyFormat = { decimals: 2, unit: "credits" };

/** How the console shows money: the decimals of every amount and the credit's unit (docs/console.md, "Money"). */
export async function moneyFormat(db: Kysely<ControlDb>): Promise<ConsoleMoneyFormat> {
  const row = await db.selectFrom("console_settings").select(["money_decimals", "money_unit"]).where("id", "=", 1).executeTakeFirst();
  return row ? { decimals: row.money_decimals, unit: row.money_unit } : DEFAULT_FORMAT;
}

/** An operator sets how the console shows money (0 to 6 decimals; a unit of 1 to 16 printable characters), audited. */
export function consoleSetMoneyFormat(ctx: ControlContext) {
  return async (req: ConsoleSetMoneyFormatRequest): Promise<ConsoleMoneyFormat> => {
    const operator = await operatorOf(ctx, req.token);
    if (!Number.isInteger(req.decimals) || req.decimals < 0 || req.decimals > 6) throw new GatewayError("invalid_request", "Decimals must be a whole number from 0 to 6.");
    const unit = req.unit.trim();
    if (!/^[\p{L}\p{N}\p{Sc} ._-]{1,16}$/u.test(unit)) throw new GatewayError("invalid_request", "The unit must be 1 to 16 letters, digits, currency signs, spaces or . _ -.");
    return audited(
      ctx,
      operator,
      async (tx) => {
        await tx.db
          .insertInto("console_settings")
          .values({ id: 1, money_decimals: req.decimals, money_unit: unit, updated_at: new Date() })
          .onConflict((oc) => oc.column("id").doUpdateSet({ money_decimals: req.decimals, money_unit: unit, updated_at: new Date() }))
          .execute();
        return { decimals: req.decimals, unit };
      },
      (f) => ({ org_id: null, action: "money_format_set", target: "console", detail: { decimals: f.decimals, unit: f.unit } }),
    );
  };
}
