/**
 * What a person's action says back, and where: its success or its error is shown beside the control
 * that caused it (a form's own line, or right after the button), and every such line is cleared when
 * the next action starts, so an old error is never read as the answer to a new action. An
 * irreversible action asks first (a modal dialog: Cancel has the focus, Escape cancels). A form is
 * emptied after it succeeded, so a second click cannot repeat it by accident; while an action runs,
 * its control is disabled and a second submit is ignored.
 */
import { messageOf } from "./api.js";
import { $, el } from "./dom.js";

/** The question an irreversible action asks before it runs. */
export interface Confirm {
  title: string;
  body: string;
  /** The confirming button's label ("Revoke key"). */
  confirm: string;
}

let lines = 0;

/** Hides every action's line (not a page's own failure to load). */
export function clearFeedback(): void {
  for (const f of document.querySelectorAll<HTMLElement>(".feedback:not(.page-error)")) {
    f.hidden = true;
    f.textContent = "";
  }
}

/** Each control's line, once made. */
const lineFor = new WeakMap<HTMLElement, HTMLElement>();

/**
 * The line beside `control`: a form's `.feedback` (its last child when the page has none); for a
 * button in a table row, a row of its own right under that row, its text kept in view of a table
 * that scrolls sideways (a narrow window); for another button, right after it.
 */
function lineOf(control: HTMLElement): HTMLElement {
  const known = lineFor.get(control) ?? (control instanceof HTMLFormElement ? control.querySelector<HTMLElement>(".feedback") : null);
  if (known) return known;
  const line = el("span", "", { class: "feedback", id: `feedback-${++lines}` });
  line.hidden = true;
  const row = control.closest("tr");
  if (control instanceof HTMLFormElement) control.append(line);
  else if (row) {
    const cell = el("td", "", { colspan: String(row.children.length) });
    cell.append(line);
    const under = el("tr", "", { class: "feedback-row" });
    under.append(cell);
    row.after(under);
  } else control.after(line);
  lineFor.set(control, line);
  return line;
}

/** Shows `text` on the line: an error as an alert, a success as a status. */
export function say(line: HTMLElement, text: string, kind: "ok" | "error"): void {
  line.setAttribute("role", kind === "error" ? "alert" : "status");
  line.className = `feedback ${kind}`;
  line.textContent = text;
  // An action with nothing to say (a next page read) leaves its line empty.
  line.hidden = text === "";
}

/** Asks before an irreversible action; true when the person confirmed. */
export function confirmed(c: Confirm): Promise<boolean> {
  const dialog = el("dialog", "", { class: "confirm", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-body" });
  const cancel = el("button", "Cancel", { type: "button", autofocus: "" });
  const ok = el("button", c.confirm, { type: "button", class: "danger" });
  const actions = el("div", "", { class: "actions" });
  actions.append(cancel, ok);
  dialog.append(el("h2", c.title, { id: "confirm-title" }), el("p", c.body, { id: "confirm-body" }), actions);
  $("main").append(dialog);
  cancel.addEventListener("click", () => dialog.close("cancel"));
  ok.addEventListener("click", () => dialog.close("ok"));
  dialog.showModal();
  cancel.focus();
  return new Promise((resolve) =>
    dialog.addEventListener(
      "close",
      () => {
        dialog.remove();
        resolve(dialog.returnValue === "ok");
      },
      { once: true },
    ),
  );
}

export interface ActionOptions {
  /** The question to ask first; null or absent: none. */
  confirm?: () => Confirm | null;
  /** After a success, once the control is enabled again (to disable it for good, say). */
  after?: () => void;
}

/** Runs an action of `control`: clears every line, asks if it must, disables `busy` meanwhile, then says how it went beside it. */
async function perform(control: HTMLElement, busy: HTMLButtonElement[], run: () => Promise<string>, options: ActionOptions): Promise<boolean> {
  clearFeedback();
  const line = lineOf(control);
  control.setAttribute("aria-describedby", line.id);
  const question = options.confirm?.();
  if (question && !(await confirmed(question))) return false;
  for (const b of busy) b.disabled = true;
  let ok = false;
  try {
    say(line, await run(), "ok");
    ok = true;
  } catch (e) {
    say(line, messageOf(e), "error");
  }
  for (const b of busy) b.disabled = false;
  if (ok) options.after?.();
  return ok;
}

/** A form's action: its answer beside it, the form emptied after success (`keep`: left as it is). `run` answers the success message. */
export function onSubmit(form: HTMLFormElement, run: () => Promise<string>, options: ActionOptions & { keep?: boolean } = {}): void {
  let running = false;
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (running) return;
    running = true;
    const buttons = [...form.querySelectorAll<HTMLButtonElement>("button")];
    void perform(form, buttons, run, options).then((ok) => {
      running = false;
      if (ok && !options.keep) form.reset();
    });
  });
}

/** A button's action: its answer right after it. */
export function onClick(button: HTMLButtonElement, run: () => Promise<string>, options: ActionOptions = {}): void {
  let running = false;
  button.addEventListener("click", () => {
    if (running) return;
    running = true;
    void perform(button, [button], run, options).then(() => {
      running = false;
    });
  });
}
