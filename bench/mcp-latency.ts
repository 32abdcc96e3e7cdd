/**
 * The MCP gateway's cost on the hot path (issue 26, docs/mcp.md): `tools/call` of the fake
 * upstream's `echo` through the gateway (`POST /mcp`: key, catalog, pinned definition, rate limit,
 * guardrails when the organization has rules, the durable record of the call) against the same call
 * made to the upstream directly — both with the official MCP SDK client, one session each,
 * sequential calls, after a warm-up. Reports p50/p95/p99 per path, the difference, and the
 * data-plane's CPU per call. Bounded: N calls per path.
 *
 *   make build && node bench/mcp-latency.ts [calls=2000]
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { cpuMicros, gitCommit, pct } from "../scripts/lib/bench.ts";
import { startBenchStack } from "./bench-stack.ts";
import { step } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 200;

const { dp, dpPort, fakeUrl, secret } = await startBenchStack("mcp_bench");

async function session(url: string, bearer: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
  return client;
}

async function run(client: Client, tool: string): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await client.callTool({ name: tool, arguments: { text: "warm" } });
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await client.callTool({ name: tool, arguments: { text: `call ${i}` } });
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

step("measuring");
// The organization's key context and the catalog reach the data-plane.
let gateway: Client | undefined;
for (let i = 0; i < 100 && !gateway; i++) {
  try {
    const c = await session(`http://127.0.0.1:${dpPort}/mcp`, secret);
    if ((await c.listTools()).tools.length) gateway = c;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}
if (!gateway) throw new Error("the gateway never listed the demo tools");
const direct = await session(`${fakeUrl}/mcp`, FAKE_UPSTREAM_API_KEY);
const directTimes = await run(direct, "echo");
const cpu0 = cpuMicros(dp.pid!);
const gatewayTimes = await run(gateway, "demo-tools__echo");
const cpuPerCall = (cpuMicros(dp.pid!) - cpu0) / (N + WARMUP);

const row = (name: string, t: number[]) => `  ${name.padEnd(28)} p50 ${pct(t, 50).toFixed(2).padStart(6)} ms  p95 ${pct(t, 95).toFixed(2).padStart(6)} ms  p99 ${pct(t, 99).toFixed(2).padStart(6)} ms`;
console.log(`MCP tools/call, ${N} sequential calls per path after ${WARMUP} warm-up (commit ${gitCommit()}):`);
console.log(row("upstream directly", directTimes));
console.log(row("through the gateway", gatewayTimes));
console.log(
  `  added by the gateway: p50 ${(pct(gatewayTimes, 50) - pct(directTimes, 50)).toFixed(2)} ms, p95 ${(pct(gatewayTimes, 95) - pct(directTimes, 95)).toFixed(2)} ms; data-plane CPU ${cpuPerCall.toFixed(0)} µs per call`,
);
await gateway.close();
await direct.close();
// A graceful stop, so a CPU profile (BENCH_CPU_PROF) is written.
dp.kill("SIGTERM");
await new Promise((r) => dp.once("exit", r));
process.exit(0);
