/**
 * The documentation's runnable code blocks, run. A fence opened with ```sh runnable or ```js runnable
 * in README.md or docs/*.md is extracted and run here, in document order, against one stack, with
 * the environment `source .local/demo.env` gives (`make up`'s demo organization is `demo` here too):
 * a renamed command, route, flag or variable fails the suite. CONTRIBUTING.md, "Runnable snippets".
 *
 * sh blocks run in bash with `set -euo pipefail`, from the repository's root (bin/gatewayctl, examples/),
 * with curl failing on an HTTP error status (a 4xx answer is not a working example). js blocks run as
 * an ES module (`node --input-type=module`, top-level await) from the root, whose node_modules hold
 * the SDKs. Python blocks are not run: the Python SDKs cannot be installed on the development machines.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoEnvText, parseEnvText } from "../../scripts/lib/demo-env.ts";
import { startStack, type Stack } from "../support/stack.ts";

const root = resolve(import.meta.dirname, "../..");

interface Snippet {
  /** `README.md:42`: the file and the line of the opening fence. */
  where: string;
  lang: "sh" | "js";
  code: string;
}

const LANGS: Record<string, Snippet["lang"]> = { sh: "sh", bash: "sh", js: "js", javascript: "js" };

/** The runnable blocks of one Markdown file; a runnable block in a language this runner cannot run is a mistake, and throws. */
function runnableSnippets(file: string, text: string): Snippet[] {
  const lines = text.split("\n");
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)\s+(.*)$/.exec(lines[i]!);
    if (!open || !open[2]!.split(/\s+/).includes("runnable")) continue;
    const lang = LANGS[open[1]!];
    if (!lang) throw new Error(`${file}:${i + 1}: a runnable block must be sh or js, not ${open[1]}`);
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${file}:${i + 1}: the block is never closed`);
    out.push({ where: `${file}:${i + 1}`, lang, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return out;
}

const files = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const snippets = files.flatMap((f) => runnableSnippets(f, readFileSync(join(root, f), "utf8")));

/** What every sh block runs after: strict mode, curl that fails on an error status, and demo.env sourced. */
const SH_PRELUDE = ["set -euo pipefail", 'curl() { command curl --silent --show-error --fail-with-body "$@"; }', 'source "$SNIPPET_DEMO_ENV"', ""].join("\n");

let stack: Stack;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  stack = await startStack("snippets", { demoOrgName: "demo" });
  dir = mkdtempSync(join(tmpdir(), "gw-snippets-"));
  const demoEnv = join(dir, "demo.env");
  writeFileSync(demoEnv, demoEnvText({ GATEWAY_BASE_URL: stack.baseUrl(), GATEWAY_API_KEY: stack.demo.secret }));
  // Nothing of the developer's own shell reaches a snippet: what it needs comes from demo.env, and
  // gatewayctl's settings are what .local/admin.env gives it after `make up`.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GATEWAY_|OPENAI_|ANTHROPIC_)/.test(k)));
  env = {
    ...inherited,
    SNIPPET_DEMO_ENV: demoEnv,
    GATEWAY_ADMIN_TOKEN: stack.adminToken,
    GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${stack.control.grpcPort}`,
    GATEWAY_LEDGER_ADDR: `127.0.0.1:${stack.ledger().grpcPort}`,
  };
});
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(s: Snippet): Promise<{ status: number | null; output: string }> {
  const [args, input] =
    s.lang === "sh"
      ? [["-c", SH_PRELUDE + s.code], ""]
      : // Sourced, not set by the runner: the Node examples must work after `source .local/demo.env` as written.
        [["-c", 'source "$SNIPPET_DEMO_ENV" && exec node --input-type=module'], s.code];
  return new Promise((done, fail) => {
    const child = spawn("bash", args, { cwd: root, env, stdio: ["pipe", "pipe", "pipe"], timeout: 20_000 });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", fail);
    child.on("close", (status) => done({ status, output }));
    child.stdin.end(input);
  });
}

describe("runnable snippets", () => {
  it("finds the README's and the docs' runnable blocks", () => {
    expect(snippets.filter((s) => s.where.startsWith("README.md:")).length).toBeGreaterThanOrEqual(5);
    expect(new Set(snippets.map((s) => s.lang))).toEqual(new Set(["sh", "js"]));
  });

  it("writes demo.env as make up does, and reads it back", () => {
    const vars = { GATEWAY_BASE_URL: "http://127.0.0.1:8080/v1", CONSOLE_SIGNIN_URL: "http://127.0.0.1:8090/signin?token=gwl_x" };
    expect(demoEnvText(vars)).toBe('export GATEWAY_BASE_URL="http://127.0.0.1:8080/v1"\nexport CONSOLE_SIGNIN_URL="http://127.0.0.1:8090/signin?token=gwl_x"\n');
    expect(parseEnvText(demoEnvText(vars))).toEqual(vars);
    // A file written before the exports (a stack started by an older checkout) still gives its key back.
    expect(parseEnvText("GATEWAY_API_KEY=sk-gateway-old\n")).toEqual({ GATEWAY_API_KEY: "sk-gateway-old" });
  });

  it("refuses a runnable block it cannot run", () => {
    expect(() => runnableSnippets("x.md", "```python runnable\nprint(1)\n```\n")).toThrow("x.md:1: a runnable block must be sh or js, not python");
    expect(runnableSnippets("x.md", "```sh\nmake up\n```\n```sh runnable\necho hi\n```\n")).toEqual([{ where: "x.md:4", lang: "sh", code: "echo hi" }]);
  });

  for (const s of snippets) {
    it(`${s.where} (${s.lang})`, async () => {
      const r = await run(s);
      expect(r.status, `${s.where} exited ${r.status}:\n${s.code}\n--- output ---\n${r.output}`).toBe(0);
    });
  }
});
