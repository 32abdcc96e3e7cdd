import { bodyOf, text } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/**
 * The members page: the control-plane reads the session and enforces the role (invite and remove:
 * admin), refuses a role an organization cannot give, and keeps the organization's last admin.
 */
export function memberRoutes({ ctx, read, write }: Routes): void {
  const { control } = ctx;
  read("/api/members", async (_req, res) => ({ data: (await control.ConsoleListMembers({ token: signed(res).token })).members }));
  write("/api/members", async (req, res) => {
    const body = bodyOf(req);
    const link = await control.ConsoleInviteMember({ token: signed(res).token, email: text(body.email), role: text(body.role) });
    // The link is shown once, to the admin who hands it over.
    return { member: link.member, signin_url: `${ctx.linkOrigin()}/signin?token=${link.token}`, expires_at_ms: link.expires_at_ms };
  });
  write("/api/members/remove", async (req, res) => ({ member: await control.ConsoleRemoveMember({ token: signed(res).token, email: text(bodyOf(req).email) }) }));
}
