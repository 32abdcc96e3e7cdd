import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The coding agents as developers install them: OpenAI's Codex CLI and Claude Code from the npm
 * registry, at pinned versions, installed once into a cache outside the checkout (kept between runs
 * and between clean clones) and run non-interactively against the gateway with nothing configured
 * but its base URL and a key.
 */
export const AGENT_PACKAGES = { codex: "@openai/codex@0.169.0", claude: "@anthropic-ai/claude-code@2.1.331" } as const;

const cacheDir = join(homedir(), ".cache", "gateway-tests", `agents-${AGENT_PACKAGES.codex.split("@")[2]}-${AGENT_PACKAGES.claude.split("@")[2]}`);

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<AgentRun> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { cwd: opts.cwd, env: opts.env, timeout: opts.timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code ?? 1) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    // No input beyond the arguments (codex exec otherwise waits to read more of its prompt from stdin).
    child.stdin?.end();
  });
}

/** Installs both CLIs into the cache when they are not there yet; returns the folder of their executables. */
export async function installAgents(): Promise<string> {
  const bin = join(cacheDir, "node_modules", ".bin");
  if (existsSync(join(bin, "codex")) && existsSync(join(bin, "claude"))) return bin;
  await mkdir(cacheDir, { recursive: true });
  // The system's npm (the one scripts/bootstrap.sh installs Node with).
  const env = { ...process.env, PATH: `${process.env.PATH ?? ""}:/usr/bin:/bin`, npm_config_update_notifier: "false" };
  const r = await run("npm", ["install", "--prefix", cacheDir, "--no-audit", "--no-fund", "--no-save", AGENT_PACKAGES.codex, AGENT_PACKAGES.claude], {
    cwd: cacheDir,
    env,
    timeoutMs: 600_000,
  });
  if (r.code !== 0 || !existsSync(join(bin, "codex")) || !existsSync(join(bin, "claude"))) throw new Error(`installing the agents failed:\n${r.stdout}\n${r.stderr}`);
  return bin;
}

/** A throwaway home for one agent run (its config, sessions and logs stay out of the tester's). */
export async function agentHome(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "gw-agent-home-"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

const baseEnv = (home: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: home,
  LANG: "C.UTF-8",
  TERM: "dumb",
});

/**
 * `codex exec PROMPT` with the gateway as its OpenAI base URL and a gateway key (CODEX_API_KEY);
 * `config`: more `-c key=value` settings (a model catalog).
 */
export async function codexExec(bin: string, o: { baseUrl: string; key: string; model: string; prompt: string; cwd: string; home: string; config?: string[] }): Promise<AgentRun> {
  const env = { ...baseEnv(o.home), CODEX_HOME: join(o.home, ".codex"), CODEX_API_KEY: o.key };
  await mkdir(env.CODEX_HOME, { recursive: true });
  const config = (o.config ?? []).flatMap((c) => ["-c", c]);
  return run(join(bin, "codex"), ["exec", "--skip-git-repo-check", "-c", `openai_base_url="${o.baseUrl}"`, ...config, "-m", o.model, o.prompt], { cwd: o.cwd, env, timeoutMs: 120_000 });
}

/** `codex debug models`: the model catalog Codex uses (its bundled one, or the one `config` points it at), as JSON on stdout. */
export async function codexDebugModels(bin: string, o: { home: string; cwd: string; config?: string[] }): Promise<AgentRun> {
  const env = { ...baseEnv(o.home), CODEX_HOME: join(o.home, ".codex") };
  await mkdir(env.CODEX_HOME, { recursive: true });
  return run(join(bin, "codex"), ["debug", "models", ...(o.config ?? []).flatMap((c) => ["-c", c])], { cwd: o.cwd, env, timeoutMs: 60_000 });
}

/** `claude -p PROMPT` with the gateway as its Anthropic base URL (no /v1) and a gateway key. */
export function claudePrint(bin: string, o: { baseUrl: string; key: string; model: string; prompt: string; cwd: string; home: string }): Promise<AgentRun> {
  const env = {
    ...baseEnv(o.home),
    ANTHROPIC_BASE_URL: o.baseUrl.replace(/\/v1\/?$/, ""),
    ANTHROPIC_API_KEY: o.key,
    // No calls to Anthropic's own services from the test machine (it has no internet).
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
  };
  return run(join(bin, "claude"), ["-p", "--model", o.model, o.prompt], { cwd: o.cwd, env, timeoutMs: 120_000 });
}
