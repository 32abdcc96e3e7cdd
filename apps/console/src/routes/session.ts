import { endSessionCookie } from "../cookies.js";
import { signed, type Routes } from "../middleware.js";

/** The signed-in session, for every role: who is signed in, the CSRF token its changes carry, the operator's money format; and signing out. */
export function sessionRoutes({ ctx, read, write }: Routes): void {
  read("/api/session", async (_req, res) => ({ member: signed(res).member, csrf_token: ctx.csrfOf(signed(res).token), money: signed(res).money }), "any");
  write(
    "/api/signout",
    async (_req, res) => {
      await ctx.control.EndConsoleSession({ token: signed(res).token });
      res.setHeader("set-cookie", endSessionCookie(ctx.config.secureCookies));
      return { signed_out: true };
    },
    { scope: "any" },
  );
}
