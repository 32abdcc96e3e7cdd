import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * The previous release, built from git: the commit named in deploy/previous-release, exported with
 * `git archive` into the temp folder (outside this tree, whose node_modules would leak into its type
 * resolution; kept between runs on one machine, rebuilt when the commit changes), installed from the pnpm store and built as CI builds it.
 */
export const root = resolve(import.meta.dirname, "../..");

export function previousReleaseCommit(): string {
  const lines = readFileSync(join(root, "deploy/previous-release"), "utf8")
    .split("\n")
    .map((l) => l.trim());
  const commit = lines.find((l) => l && !l.startsWith("#"));
  if (!commit || !/^[0-9a-f]{40}$/.test(commit)) throw new Error("deploy/previous-release must name a full 40-hex commit");
  return commit;
}

/** The previous release's tree, built (its apps/<service>/dist/main.js ready to run). */
export function buildPreviousRelease(): string {
  const commit = previousReleaseCommit();
  const dir = join(tmpdir(), "gateway-previous-release", commit);
  const marker = join(dir, ".built");
  if (existsSync(marker)) return dir;
  try {
    execFileSync("git", ["cat-file", "-e", `${commit}^{commit}`], { cwd: root, stdio: "ignore" });
  } catch {
    throw new Error(`the previous release ${commit} is not in this clone's history (a shallow clone?): fetch it, or clone without --depth`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${commit} | tar -x -C "${dir}"`], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: dir, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } });
  run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--reporter=silent"]);
  run("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only", "--filter=@gateway/control-plane...", "--filter=@gateway/ledger...", "--filter=@gateway/data-plane..."]);
  writeFileSync(marker, `${commit}\n`);
  return dir;
}

export type Service = "control-plane" | "ledger" | "data-plane";

/** One service as its own process, from a tree (this one or the previous release's). */
export interface ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Asks it to stop (SIGTERM) and waits until it has. */
  stop(): Promise<void>;
  /** Ends it at once (SIGKILL), quietly: for a test's teardown. */
  kill(): void;
}

export function startService(tree: string, service: Service, name: string, env: Record<string, string>): ServiceProcess {
  const cwd = join(tree, "apps", service);
  const child = spawn(process.execPath, ["dist/main.js"], { cwd, env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  let stopping = false;
  child.stderr?.on("data", (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4_000)));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`[${name}] exited unexpectedly (${code ?? signal}): ${stderr}\n`);
  });
  return {
    name,
    child,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    kill() {
      stopping = true;
      child.kill("SIGKILL");
    },
  };
}
