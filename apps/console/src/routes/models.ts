import { signed, type Routes } from "../middleware.js";

/** The models page: the models the organization may call (the control-plane answers for the session's organization). */
export function modelRoutes({ ctx, read }: Routes): void {
  read("/api/models", async (_req, res) => ({ data: (await ctx.control.ConsoleListModels({ token: signed(res).token })).models }));
}
