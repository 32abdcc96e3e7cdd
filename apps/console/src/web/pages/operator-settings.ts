/** The operator's settings (/operator/settings): how the console shows money to everyone, with an example as it will read. */
import { formatAmount } from "../../shared/money.js";
import { post } from "../api.js";
import { $, fieldValue } from "../dom.js";
import { onSubmit } from "../feedback.js";
import { moneyFormatOf, startPage } from "../shell.js";

const example = () => {
  $("money-example").textContent = formatAmount(1_234_567_891, { decimals: Number(fieldValue("money-decimals")), unit: fieldValue("money-unit").trim() || "credits" });
};

/** The form shows the format in force. */
function current(f: { decimals: number; unit: string }): void {
  $<HTMLSelectElement>("money-decimals").value = String(f.decimals);
  $<HTMLInputElement>("money-unit").value = f.unit;
  example();
}

void startPage(async () => {
  current(moneyFormatOf());
  $("money").addEventListener("input", example);
  onSubmit(
    $<HTMLFormElement>("money"),
    async () => {
      const { money } = await post<{ money: { decimals: number; unit: string } }>("/api/operator/settings/money", { decimals: Number(fieldValue("money-decimals")), unit: fieldValue("money-unit") });
      current(money);
      return `Saved: every page shows money like ${$("money-example").textContent}.`;
    },
    { keep: true },
  );
});
