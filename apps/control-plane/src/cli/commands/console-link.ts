import { need } from "../args.js";
import { command, UsageError } from "../command.js";

export const consoleLink = command({
  words: ["console", "link"],
  help: [
    {
      synopsis: "console link --org ORG --email E --role admin|billing|viewer",
      summary: ["adds the console member (or sets its role) and prints a one-time", "sign-in token: single use, 15 minutes (docs/console.md)"],
    },
    { synopsis: "console link --operator --email E", summary: ["the same for an operator (every organization, the catalog)"] },
  ],
  flags: { org: { type: "string" }, email: { type: "string" }, role: { type: "string" }, operator: { type: "boolean" } },
  async run(args, { clients, out, flags }) {
    if (args.length > 0) throw new UsageError("console link takes --org, --email and --role (or --email and --operator), no positional arguments");
    const operator = flags.operator === true;
    if (operator && (flags.org !== undefined || flags.role !== undefined)) throw new UsageError("--operator takes no --org or --role: an operator belongs to no organization");
    const role = operator ? "operator" : need(flags.role, "--role");
    if (role !== "admin" && role !== "billing" && role !== "viewer" && role !== "operator") throw new UsageError(`--role must be admin, billing or viewer, got '${role}'`);
    const link = await clients().admin.CreateSignInLink({ org: operator ? "" : need(flags.org, "--org"), email: need(flags.email, "--email"), role });
    return out.print(
      { token: link.token, expires_at: new Date(link.expires_at_ms).toISOString(), member: link.member },
      `${link.token}\t${link.member?.email} (${link.member?.role})${operator ? "" : ` of ${link.member?.org_id}`}\tsingle use, until ${new Date(link.expires_at_ms).toISOString()}`,
    );
  },
});
