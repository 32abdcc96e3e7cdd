/** Building pages from text, never HTML: elements, table rows, definition lists. */

/** An element the page's HTML has (a missing one is a bug of the page). */
export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** A form control's value. */
export const fieldValue = (id: string) => $<HTMLInputElement | HTMLSelectElement>(id).value;

/** An element with text and attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text = "", attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** A link. */
export const link = (href: string, text: string) => el("a", text, { href });

/** A table row of cells: text (with the whole text as the title: long cells are cut with an ellipsis) or elements. */
export function row(cells: Array<string | Node>): HTMLTableRowElement {
  const tr = document.createElement("tr");
  for (const c of cells) {
    const td = document.createElement("td");
    if (typeof c === "string") {
      td.textContent = c;
      td.title = c;
    } else td.append(c);
    tr.append(td);
  }
  return tr;
}

/** A table body's one row saying it is empty (spanning every column). */
export function emptyRow(body: HTMLElement, message: string): void {
  const td = el("td");
  td.colSpan = body.closest("table")?.querySelectorAll("thead th").length ?? 1;
  td.className = "empty";
  // The message stays in view of a table wider than the window (it would scroll away with the columns).
  td.append(el("span", message));
  const tr = document.createElement("tr");
  tr.append(td);
  body.append(tr);
}

/** Rows into a table body, or its empty row. */
export function fillTable(body: HTMLElement, rows: HTMLTableRowElement[], empty: string): void {
  body.replaceChildren(...rows);
  if (rows.length === 0) emptyRow(body, empty);
}

/** label/value pairs into a definition list; `minor` (the exact amount) kept in data-minor. */
export function pairs(target: HTMLElement, entries: Array<[string, string, string?]>): void {
  target.replaceChildren();
  for (const [label, value, minor] of entries) {
    const pair = el("div");
    const dd = el("dd", value);
    if (minor !== undefined) dd.dataset.minor = minor;
    pair.append(el("dt", label), dd);
    target.append(pair);
  }
}

/** A day, or a day and time, in the reader's locale and short (wide tables stay within a laptop's window). */
export const day = (ms: number) => new Date(ms).toLocaleDateString(undefined, { dateStyle: "medium" });
export const dayTime = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
/** A whole number, grouped. */
export const count = (n: number) => n.toLocaleString("en-US");
