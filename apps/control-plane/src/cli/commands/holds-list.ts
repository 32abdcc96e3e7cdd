import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";

export const holdsList = command({
  words: ["holds", "list"],
  help: [{ synopsis: "holds list ORG" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 1) throw new UsageError("holds list takes exactly one ORG");
    const c = clients();
    const { leases } = await c.ledger.ListHolds({ org_id: await resolveOrgId(c, args[0]!) });
    return out.print(
      { holds: leases.map((l) => ({ id: l.lease_id, ...l })) },
      leases
        .map((l) => `${l.lease_id}\t${l.status}\theld ${l.remaining_minor}\tgranted ${l.granted_minor}\tapplied ${l.applied_minor}\t${l.holder}\texpires ${new Date(l.expires_at_ms).toISOString()}`)
        .join("\n") || "(no holds)",
    );
  },
});
