/**
 * The MCP tool definitions waiting for approval (/operator/mcp): each as the difference between the
 * approved definition and the pending one, approved by the digest of exactly the difference shown; a
 * refusal (the server changed it again since) is shown beside its button.
 */
import { getJson, messageOf, post } from "../api.js";
import { $, dayTime, el, pairs } from "../dom.js";
import { onClick } from "../feedback.js";
import { startPage } from "../shell.js";

type DiffLine = { op: " " | "-" | "+"; text: string } | { op: "…"; count: number };
interface PendingTool {
  server: string;
  tool: string;
  change: "changed" | "new";
  pending_digest: string;
  pending_since_ms: number;
  approved_digest: string;
  approved_at_ms: number;
  approved_by: string;
  diff: DiffLine[];
}

/** A difference as text in a focusable, scrollable block: removed lines in `del`, added in `ins`, folded runs as a count. */
function diffBlock(lines: DiffLine[], label: string): HTMLPreElement {
  const pre = el("pre", "", { class: "diff", tabindex: "0", role: "region", "aria-label": label });
  for (const l of lines) {
    const line = el(l.op === "-" ? "del" : l.op === "+" ? "ins" : "span");
    if (l.op === "…") {
      line.className = "fold";
      line.textContent = `  ⋯ ${l.count} unchanged ${l.count === 1 ? "line" : "lines"}`;
    } else line.textContent = `${l.op} ${l.text}`;
    pre.append(line);
  }
  return pre;
}

/** One tool waiting: what it is, the difference to read, and its Approve button, which approves the digest of exactly this difference. */
function pendingTool(p: PendingTool, n: number): HTMLElement {
  const article = el("article", "", { class: "pending-tool", "aria-labelledby": `mcp-${n}-title` });
  const h = el("h2", `${p.server} · ${p.tool} `, { id: `mcp-${n}-title` });
  h.append(el("strong", p.change.toUpperCase(), { class: "badge" }));
  const facts = el("dl", "", { class: "facts" });
  pairs(facts, [
    ["Server", p.server],
    ["Tool", p.tool],
    ["Seen", dayTime(p.pending_since_ms)],
    ["Pending definition", p.pending_digest.slice(0, 12)],
    ["Approved definition", p.approved_digest ? `${p.approved_digest.slice(0, 12)}, by ${p.approved_by}, ${dayTime(p.approved_at_ms)}` : "none: new since the server's first listing"],
  ]);
  const what =
    p.change === "new" ? `The whole pending definition of ${p.tool} (${p.server})` : `The approved definition of ${p.tool} (${p.server}, lines marked -) against the pending one (lines marked +)`;
  const approve = el("button", "Approve", { type: "button", "aria-label": `Approve ${p.tool} of ${p.server}, definition ${p.pending_digest.slice(0, 12)}` });
  onClick(approve, async () => {
    const r = await post<{ digest: string }>("/api/operator/mcp-pins/approve", { server: p.server, tool: p.tool, digest: p.pending_digest });
    approve.hidden = true;
    return `Approved: ${p.tool} of ${p.server} is pinned to definition ${r.digest.slice(0, 12)}; every replica serves it within a catalog refresh.`;
  });
  const actions = el("div", "", { class: "approve" });
  actions.append(approve);
  article.append(h, facts, diffBlock(p.diff, what), actions);
  return article;
}

async function loadPendingTools(): Promise<void> {
  const { data } = await getJson<{ data: PendingTool[] }>("/api/operator/mcp-pins");
  $("mcp-pending").replaceChildren(...data.map(pendingTool));
  if (data.length === 0) $("mcp-pending").append(el("p", "No MCP tool definition waits for approval.", { class: "muted" }));
}

void startPage(async () => {
  onClick($<HTMLButtonElement>("mcp-reload"), async () => {
    await loadPendingTools();
    return "Checked.";
  });
  // The section says itself when the pending tools cannot be read (a control-plane older than this console).
  await loadPendingTools().catch((e: unknown) => $("mcp-pending").replaceChildren(el("p", `The MCP tools waiting for approval could not be read: ${messageOf(e)}`, { class: "feedback error" })));
});
