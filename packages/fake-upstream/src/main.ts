import { startFakeUpstream } from "./index.js";

const port = Number(process.env.FAKE_UPSTREAM_PORT ?? 9100);
const host = process.env.FAKE_UPSTREAM_HOST ?? "127.0.0.1";
const apiKey = process.env.FAKE_UPSTREAM_API_KEY || undefined;
const fake = await startFakeUpstream({ port, host, ...(apiKey ? { apiKey } : {}) });
process.stdout.write(JSON.stringify({ level: "info", service: "fake-upstream", msg: `listening on ${fake.url}` }) + "\n");
const stop = () => void fake.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
