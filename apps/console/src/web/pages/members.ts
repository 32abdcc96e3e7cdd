/**
 * The organization's members (/members): admins invite one with a role (the one-time link shown to
 * the admin) and remove one, after confirming. The control-plane keeps the organization's last admin:
 * removing or demoting it is refused, and the refusal is shown beside the button or the form.
 */
import { getJson, post } from "../api.js";
import { $, el, fillTable, row, fieldValue } from "../dom.js";
import { onClick, onSubmit } from "../feedback.js";
import { member, startPage } from "../shell.js";

interface Member {
  email: string;
  role: string;
}

function removeButton(m: Member): HTMLButtonElement {
  const b = el("button", "Remove", { type: "button", class: "danger", "aria-label": `Remove ${m.email}` });
  const self = m.email.toLowerCase() === member().email.toLowerCase();
  onClick(
    b,
    async () => {
      await post("/api/members/remove", { email: m.email });
      b.hidden = true;
      if (self) location.assign("/signin");
      return `Removed: ${m.email} can no longer sign in.`;
    },
    {
      confirm: () => ({
        title: self ? "Remove yourself?" : `Remove ${m.email}?`,
        body: self
          ? "You are signed out at once and cannot sign in to this organization again until an admin invites you."
          : `${m.email} is signed out at once and its unused sign-in links stop working.`,
        confirm: "Remove member",
      }),
    },
  );
  return b;
}

async function loadMembers(): Promise<void> {
  const { data } = await getJson<{ data: Member[] }>("/api/members");
  const rows = data.map((m) => {
    const tr = row([m.email, m.role, ""]);
    if (member().role === "admin") tr.lastElementChild!.append(removeButton(m));
    return tr;
  });
  fillTable($("members"), rows, "No members.");
}

void startPage(async (m) => {
  for (const f of document.querySelectorAll<HTMLElement>(".admin-only")) f.hidden = m.role !== "admin";
  onSubmit($<HTMLFormElement>("invite"), async () => {
    const [email, role] = [fieldValue("invite-email"), fieldValue("invite-role")];
    const invited = await post<{ signin_url: string }>("/api/members", { email, role });
    $("invite-link").textContent = invited.signin_url;
    $("invited").hidden = false;
    void loadMembers();
    return `Invited ${email} as ${role}: send the link below.`;
  });
  await loadMembers();
});
