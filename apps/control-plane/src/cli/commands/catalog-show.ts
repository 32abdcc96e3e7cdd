import { command } from "../command.js";

export const catalogShow = command({
  words: ["catalog", "show"],
  help: [{ synopsis: "catalog show", summary: ["the catalog as the JSON document catalog apply takes"] }],
  flags: {},
  async run(_args, { clients, out }) {
    const c = await clients().admin.GetCatalogDocument({});
    // The document itself, with or without --json: what `catalog apply -f` reads back.
    const document = JSON.parse(c.document_json) as Record<string, unknown>;
    return out.print(document, c.document_json);
  },
});
