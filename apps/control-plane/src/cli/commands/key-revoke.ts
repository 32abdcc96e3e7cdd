import { command, UsageError } from "../command.js";

export const keyRevoke = command({
  words: ["key", "revoke"],
  help: [{ synopsis: "key revoke KEY_ID" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 1) throw new UsageError("key revoke takes exactly one KEY_ID");
    const k = await clients().admin.RevokeKey({ key_id: args[0]! });
    return out.print({ ...k }, `revoked key ${k.id}`);
  },
});
