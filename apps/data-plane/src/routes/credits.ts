import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import type { Authenticated } from "../http/request-context.js";

/** GET /v1/credits: the key's organization balance and lifetime spend, minor credit units. */
export function credits(ctx: DataPlaneContext) {
  return async (_req: Request, res: Response, { key }: Authenticated): Promise<void> => {
    const c = await ctx.ledger.GetCredits({ org_id: key.org_id });
    res.json({ object: "credits", balance_minor: c.balance_minor, spent_minor: c.spent_minor, held_minor: c.held_minor });
  };
}
