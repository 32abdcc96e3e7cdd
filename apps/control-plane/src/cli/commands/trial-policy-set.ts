import { need, readDocument } from "../args.js";
import { command, UsageError } from "../command.js";

export const trialPolicySet = command({
  words: ["trial-policy", "set"],
  help: [{ synopsis: "trial-policy set -f FILE", summary: ["(YAML or JSON: allowed_models, unlock_topup_minor)"] }],
  flags: { file: { type: "string", short: "f" } },
  async run(_args, { clients, out, flags }) {
    const doc = readDocument(need(flags.file, "-f FILE")) as { allowed_models?: unknown; unlock_topup_minor?: unknown };
    const models = doc.allowed_models ?? [];
    if (!Array.isArray(models) || !models.every((m) => typeof m === "string")) throw new UsageError("allowed_models must be a list of model ids");
    if (typeof doc.unlock_topup_minor !== "number" || !Number.isSafeInteger(doc.unlock_topup_minor) || doc.unlock_topup_minor < 0) {
      throw new UsageError("unlock_topup_minor must be a non-negative integer");
    }
    const p = await clients().admin.SetTrialPolicy({ allowed_models: models, unlock_topup_minor: doc.unlock_topup_minor });
    return out.print({ ...p }, `trial policy version ${p.version} (${p.policy_hash.slice(0, 12)}…): ${p.allowed_models.join(", ") || "no models"}, unlocks at ${p.unlock_topup_minor} minor units`);
  },
});
