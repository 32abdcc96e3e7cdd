/**
 * The organization's budgets (/budget): its time zone, cap and window; where its end users are read,
 * their default cap and the named end users' own caps (a filtered list, a page at a time); its
 * projects; each key's budget. Every budget with its current window's spend and hold at the ledger
 * and when the window resets, in the organization's time zone. Admins and billing members set them,
 * amounts in the operator's money unit; viewers read. Removing an end user's own cap asks first.
 */
import { exactCredits } from "../../shared/money.js";
import { getJson, post } from "../api.js";
import { $, count, el, fieldValue, fillTable, link, pairs, row } from "../dom.js";
import { onClick, onSubmit } from "../feedback.js";
import { keyName, type Key } from "../keys-view.js";
import { budgetCells, type Budget, type Budgets, capText, currentWindows, NO_BUDGET, projectOptions, resetText, setsBudgets, windowOptions } from "../budget-view.js";
import { member, money, moneyFormatOf, startPage } from "../shell.js";

/** Named end users listed per page. */
const PAGE = 50;
/** The most named end users an organization may have (docs/billing.md, "Budgets"). */
const MAX_END_USERS = 1_000;

let state: { b: Budgets; keys: Key[] } | null = null;
let euPage = 0;

const input = (id: string) => $<HTMLInputElement>(id);
const select = (id: string) => $<HTMLSelectElement>(id);

/** Fills a form's cap and window with a budget's. */
function fill(cap: string, window: string, b: Budget | null | undefined): void {
  input(cap).value = exactCredits(b?.limit_minor ?? 0);
  select(window).value = b?.window ?? "month";
}

function drawOrg(b: Budgets, windows: ReturnType<typeof currentWindows>): void {
  const w = windows.get("org");
  const [cap, spent, held, reset] = budgetCells(b.budget, w, b.time_zone);
  const left = b.budget?.limit_minor ? money(Math.max(0, b.budget.limit_minor - (w?.spent_minor ?? 0))) : "—";
  pairs($("org-now"), [
    ["Time zone", b.time_zone],
    ["Cap", cap!],
    ["Spent in this window", spent!, w ? String(w.spent_minor) : undefined],
    ["Held by the gateway", held!],
    ["Left", left],
    ["Resets", reset!],
  ]);
  $("zone-now").textContent = b.time_zone;
}

function drawEndUserSettings(b: Budgets): void {
  const source = { "": "nowhere: no end-user budgets", body: "the request body", header: "the x-gateway-end-user header" }[b.end_user_source] ?? b.end_user_source;
  pairs($("end-users-now"), [
    ["End users read from", source],
    ["Default cap of each end user", capText(b.end_user_budget)],
    ["With a cap of their own", `${count(b.end_user_overrides)} of at most ${count(MAX_END_USERS)}`],
  ]);
  $("named-count").textContent = `${count(b.end_user_overrides)} of at most ${count(MAX_END_USERS)}; the others have the default cap.`;
}

/**
 * A named end user's buttons: Change fills the form with its cap; Remove asks first, then it falls
 * back to the default cap (its row says so until the list is drawn again, so the answer under it stays in view).
 */
function endUserActions(e: { end_user: string; limit_minor: number }, b: Budgets, tr: HTMLTableRowElement): HTMLElement {
  const cell = el("span", "", { class: "actions" });
  const change = el("button", "Change", { type: "button", "aria-label": `Change ${e.end_user}'s cap` });
  change.addEventListener("click", () => {
    input("eu-id").value = e.end_user;
    input("eu-cap").value = exactCredits(e.limit_minor);
    input("eu-cap").focus();
  });
  const remove = el("button", "Remove", { type: "button", class: "danger", "aria-label": `Remove ${e.end_user}'s own cap` });
  onClick(
    remove,
    async () => {
      await post("/api/end-user-budgets/remove", { end_user: e.end_user });
      remove.hidden = change.hidden = true;
      tr.children[1]!.textContent = "the default cap";
      b.end_users = b.end_users.filter((x) => x.end_user !== e.end_user);
      b.end_user_overrides = b.end_users.length;
      drawEndUserSettings(b);
      return `Removed: ${e.end_user} has the default cap now (${capText(b.end_user_budget)}).`;
    },
    {
      confirm: () => ({
        title: `Remove ${e.end_user}'s own cap?`,
        body: `${e.end_user} falls back to the end users' default cap (${capText(b.end_user_budget)}) from its next request.`,
        confirm: "Remove cap",
      }),
    },
  );
  cell.append(change, remove);
  return cell;
}

function drawEndUsers(): void {
  if (!state) return;
  const { b } = state;
  const windows = currentWindows(b.windows);
  const q = fieldValue("eu-filter-text").trim().toLowerCase();
  const shown = b.end_users.filter((e) => e.end_user.toLowerCase().includes(q));
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  euPage = Math.min(euPage, pages - 1);
  const canSet = setsBudgets(member().role);
  const rows = shown.slice(euPage * PAGE, (euPage + 1) * PAGE).map((e) => {
    const own: Budget = { limit_minor: e.limit_minor, window: b.end_user_budget?.window ?? "month" };
    const cells = e.limit_minor ? budgetCells(own, windows.get(`user:${e.end_user}`), b.time_zone) : ["no cap (exempt from the default)", "—", "—", "—"];
    const tr = row([e.end_user, ...cells, ""]);
    if (canSet) tr.lastElementChild!.append(endUserActions(e, b, tr));
    return tr;
  });
  fillTable($("end-users"), rows, q ? `No end user with a cap of its own contains "${q}".` : "No end user has a cap of its own: each has the default cap.");
  const from = shown.length ? euPage * PAGE + 1 : 0;
  $("eu-page").textContent = `${count(from)}–${count(Math.min(shown.length, (euPage + 1) * PAGE))} of ${count(shown.length)}`;
  $<HTMLButtonElement>("eu-prev").disabled = euPage === 0;
  $<HTMLButtonElement>("eu-next").disabled = euPage >= pages - 1;
  $("eu-prev").parentElement!.hidden = shown.length <= PAGE;
}

function drawProjects(b: Budgets, windows: ReturnType<typeof currentWindows>): void {
  fillTable(
    $("projects"),
    b.projects.map((p) => row([p.name, count(p.keys), ...budgetCells(p.budget, windows.get(`project:${p.id}`), b.time_zone)])),
    "No projects yet.",
  );
  const chosen = select("pb-project").value;
  projectOptions(select("pb-project"), b.projects);
  if (b.projects.some((p) => p.id === chosen)) select("pb-project").value = chosen;
  const p = b.projects.find((x) => x.id === select("pb-project").value);
  fill("pb-cap", "pb-window", p?.budget);
  $("project-budget").hidden = !setsBudgets(member().role) || b.projects.length === 0;
}

function drawKeys(b: Budgets, keys: Key[], windows: ReturnType<typeof currentWindows>): void {
  const projects = new Map(b.projects.map((p) => [p.id, p.name]));
  fillTable(
    $("key-budgets"),
    keys
      .filter((k) => !k.revoked)
      .map((k) =>
        row([
          link(`/keys/${encodeURIComponent(k.id)}`, keyName(k)),
          ...budgetCells(k.budget, windows.get(`key:${k.id}`), b.time_zone),
          projects.get(k.project_id ?? "") ?? "none",
          k.tags?.length ? k.tags.join(", ") : "none",
        ]),
      ),
    "No keys yet.",
  );
}

/** Reads every budget and its window again and draws the page; the forms' fields take the settings now. */
async function load(): Promise<void> {
  const [b, { data: keys }] = await Promise.all([getJson<Budgets>("/api/budgets"), getJson<{ data: Key[] }>("/api/keys")]);
  state = { b, keys };
  const windows = currentWindows(b.windows);
  drawOrg(b, windows);
  drawEndUserSettings(b);
  drawEndUsers();
  drawProjects(b, windows);
  drawKeys(b, keys, windows);
}

/** The settings' forms hold the settings as they are: after a change, and when the page opens. */
function fillSettings(b: Budgets): void {
  input("org-tz").value = b.time_zone;
  fill("org-cap", "org-window", b.budget ?? NO_BUDGET);
  select("eu-source").value = b.end_user_source;
  fill("eu-default-cap", "eu-window", b.end_user_budget ?? NO_BUDGET);
}

function zones(): void {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  $("zones").replaceChildren(...["UTC", ...known.filter((z) => z !== "UTC")].map((z) => el("option", "", { value: z })));
}

function forms(): void {
  onSubmit(
    $<HTMLFormElement>("org-budget"),
    async () => {
      const r = await post<Budgets>("/api/budgets", { time_zone: fieldValue("org-tz"), limit: fieldValue("org-cap"), window: fieldValue("org-window") });
      await load();
      fillSettings(state!.b);
      return `Saved: ${capText(r.budget)}, windows from midnight in ${r.time_zone}; it resets ${resetText(r.budget, currentWindows(state!.b.windows).get("org"), r.time_zone)}.`;
    },
    { keep: true },
  );
  onSubmit(
    $<HTMLFormElement>("end-user-settings"),
    async () => {
      const r = await post<Budgets>("/api/budgets", { end_user_source: fieldValue("eu-source"), end_user_limit: fieldValue("eu-default-cap"), end_user_window: fieldValue("eu-window") });
      await load();
      fillSettings(state!.b);
      return r.end_user_source ? `Saved: each end user may spend ${capText(r.end_user_budget)} unless it has a cap of its own.` : "Saved: end users are not read, so no end-user budget applies.";
    },
    { keep: true },
  );
  onSubmit($<HTMLFormElement>("end-user"), async () => {
    const r = await post<{ end_user: string; limit_minor: number }>("/api/end-user-budgets", { end_user: fieldValue("eu-id"), limit: fieldValue("eu-cap") });
    await load();
    const window = state?.b.end_user_budget?.window ?? "month";
    return r.limit_minor ? `Saved: ${r.end_user} may spend ${capText({ limit_minor: r.limit_minor, window })}.` : `Saved: ${r.end_user} has no cap, whatever the default.`;
  });
  select("pb-project").addEventListener("change", () => fill("pb-cap", "pb-window", state?.b.projects.find((p) => p.id === fieldValue("pb-project"))?.budget));
  onSubmit(
    $<HTMLFormElement>("project-budget"),
    async () => {
      const r = await post<{ project: { name: string; budget: Budget } }>(`/api/projects/${encodeURIComponent(fieldValue("pb-project"))}/budget`, {
        limit: fieldValue("pb-cap"),
        window: fieldValue("pb-window"),
      });
      await load();
      return `Saved: ${r.project.name} may spend ${capText(r.project.budget)}.`;
    },
    { keep: true },
  );
  onSubmit($<HTMLFormElement>("new-project"), async () => {
    const r = await post<{ project: { name: string; budget: Budget } }>("/api/projects", { name: fieldValue("np-name"), limit: fieldValue("np-cap"), window: fieldValue("np-window") });
    await load();
    return `Created ${r.project.name} (${capText(r.project.budget)}): put keys in it on their pages.`;
  });
  $("eu-filter").addEventListener("submit", (ev) => ev.preventDefault());
  input("eu-filter-text").addEventListener("input", () => {
    euPage = 0;
    drawEndUsers();
  });
  $("eu-prev").addEventListener("click", () => {
    euPage = Math.max(0, euPage - 1);
    drawEndUsers();
  });
  $("eu-next").addEventListener("click", () => {
    euPage += 1;
    drawEndUsers();
  });
}

void startPage(async (m) => {
  for (const f of document.querySelectorAll<HTMLElement>(".billing-only")) f.hidden = !setsBudgets(m.role);
  for (const u of document.querySelectorAll(".money-unit")) u.textContent = moneyFormatOf().unit;
  for (const s of ["org-window", "eu-window", "pb-window", "np-window"]) windowOptions(select(s));
  select("np-window").value = "month";
  zones();
  forms();
  await load();
  fillSettings(state!.b);
});
