import { signed, type Routes } from "../middleware.js";

/** The models page: the models the organization may call with every kind of price, and the MCP tools with their price per call (the control-plane answers for the session's organization). */
export function modelRoutes({ ctx, read }: Routes): void {
  read("/api/models", async (_req, res) => {
    const { models, tools } = await ctx.control.ConsoleListModels({ token: signed(res).token });
    return { data: models, tools };
  });
}
