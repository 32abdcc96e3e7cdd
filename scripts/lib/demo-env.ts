/**
 * .local/demo.env: what `make up` tells a developer (the base URL, the demo key, the console's
 * sign-in links), written so that `source .local/demo.env` exports it to every program the shell
 * starts: the SDK examples read process.env / os.environ, which plain assignments never reach.
 */

/** The file's text: one `export NAME="value"` line per variable. */
export function demoEnvText(vars: Readonly<Record<string, string>>): string {
  return Object.entries(vars)
    .map(([k, v]) => `export ${k}="${v}"\n`)
    .join("");
}

/** Reads an env file `make up` wrote: `NAME=value` lines, with or without `export` and quotes. */
export function parseEnvText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^(?:export\s+)?([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!.replace(/^"|"$/g, "");
  }
  return out;
}
