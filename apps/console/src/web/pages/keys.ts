/**
 * The organization's keys (/keys): name (a link to the key's page), prefix, routes, models, its own
 * limits, 30 days' spend and last use; admins create keys (the secret shown once) and revoke them,
 * after confirming. The API refuses both to other roles anyway (403).
 */
import { getJson, post } from "../api.js";
import { $, dayTime, el, fillTable, link, row, fieldValue } from "../dom.js";
import { onClick, onSubmit } from "../feedback.js";
import { createdCell, keyName, scopeCells, type Key } from "../keys-view.js";
import { member, money, startPage } from "../shell.js";

interface KeyUse extends Key {
  spent_30d_minor: number;
  last_used_hour_ms: number | null;
}

const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A key's Revoke button: asks first; on success the row says revoked and the button's place says so. */
function revokeButton(k: KeyUse, state: HTMLTableCellElement): HTMLButtonElement {
  const b = el("button", "Revoke", { type: "button", class: "danger", "aria-label": `Revoke ${keyName(k)}` });
  onClick(
    b,
    async () => {
      await post(`/api/keys/${encodeURIComponent(k.id)}/revoke`);
      state.textContent = "revoked";
      b.hidden = true;
      return `Revoked: ${keyName(k)} no longer works.`;
    },
    { confirm: () => ({ title: `Revoke ${keyName(k)}?`, body: "Requests with this key are refused from now on. A revoked key cannot be restored.", confirm: "Revoke key" }) },
  );
  return b;
}

async function loadKeys(): Promise<void> {
  const { data } = await getJson<{ data: KeyUse[] }>("/api/keys");
  const rows = data.map((k) => {
    const tr = row([
      link(`/keys/${encodeURIComponent(k.id)}`, keyName(k)),
      `${k.prefix}…`,
      ...scopeCells(k),
      money(k.spent_30d_minor),
      k.last_used_hour_ms === null ? "not in 30 days" : dayTime(k.last_used_hour_ms),
      createdCell(k),
      k.revoked ? "revoked" : "active",
      "",
    ]);
    if (!k.revoked && member().role === "admin") tr.lastElementChild!.append(revokeButton(k, tr.children[8] as HTMLTableCellElement));
    return tr;
  });
  fillTable($("keys"), rows, "No keys yet.");
}

void startPage(async (m) => {
  for (const f of document.querySelectorAll<HTMLElement>(".admin-only")) f.hidden = m.role !== "admin";
  onSubmit($<HTMLFormElement>("new-key"), async () => {
    const name = fieldValue("key-name");
    const created = await post<{ secret: string }>("/api/keys", {
      name,
      routes: list(fieldValue("key-routes")),
      models: list(fieldValue("key-models")),
      rpm_limit: fieldValue("key-rpm"),
      tpm_limit: fieldValue("key-tpm"),
    });
    $("secret-value").textContent = created.secret;
    $("secret").hidden = false;
    void loadKeys();
    return `Created ${name}.`;
  });
  await loadKeys();
});
