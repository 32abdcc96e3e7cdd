import { GatewayError } from "@gateway/errors";
import { bodyOf, text } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/** The operator's settings: how the console shows money to everyone (decimals and the credit's unit); the control-plane checks the operator and audits. */
export function operatorSettingsRoutes({ ctx, write }: Routes): void {
  write(
    "/api/operator/settings/money",
    async (req, res) => {
      const b = bodyOf(req);
      const decimals = typeof b.decimals === "string" && /^\d$/.test(b.decimals) ? Number(b.decimals) : b.decimals;
      if (typeof decimals !== "number" || !Number.isInteger(decimals)) throw new GatewayError("invalid_request", "Decimals must be a whole number from 0 to 6.");
      return { money: await ctx.control.ConsoleSetMoneyFormat({ token: signed(res).token, decimals, unit: text(b.unit) }) };
    },
    { scope: "operator" },
  );
}
