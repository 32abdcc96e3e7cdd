/** The operator's trace lookup (/operator/trace): an id opens its record at /operator/trace/{id} (the request page), whatever its organization. */
import { $, fieldValue } from "../dom.js";
import { say } from "../feedback.js";
import { startPage } from "../shell.js";

void startPage(async () => {
  const form = $<HTMLFormElement>("trace");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const id = fieldValue("trace-id").trim();
    if (!/^[A-Za-z0-9_.:-]{1,128}$/.test(id)) return say($("trace-feedback"), "A trace id is 1 to 128 letters, digits or _ . : - (such as req_…).", "error");
    location.assign(`/operator/trace/${encodeURIComponent(id)}`);
  });
});
