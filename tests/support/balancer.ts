import { createServer, connect, type Server, type Socket } from "node:net";

/**
 * A Kubernetes Service in miniature: new TCP connections go round-robin to the backends listed now;
 * connections already open stay with their backend, as kube-proxy's do. With `watchReadiness`, a
 * backend whose readiness probe fails is taken out of rotation `propagationMs` later, the way the
 * endpoints controller and kube-proxy drop a pod some time after its readiness goes false.
 */
export class Balancer {
  private backends: number[] = [];
  private next = 0;
  private readonly server: Server;
  private readonly open = new Set<Socket>();
  private watching: NodeJS.Timeout | undefined;
  private readonly leaving = new Set<number>();
  /** Connections handed to each backend. */
  readonly connections = new Map<number, number>();
  /** When each backend was taken out of rotation (performance.now()). */
  readonly removedAt = new Map<number, number>();
  port = 0;

  constructor() {
    this.server = createServer((client) => {
      const port = this.backends[this.next++ % Math.max(1, this.backends.length)];
      if (port === undefined) return void client.destroy();
      this.connections.set(port, (this.connections.get(port) ?? 0) + 1);
      const upstream = connect(port, "127.0.0.1");
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        a.pipe(b);
        a.on("error", () => b.destroy());
        a.on("close", () => b.destroy());
      }
      this.open.add(client);
      client.on("close", () => this.open.delete(client));
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.port = (this.server.address() as { port: number }).port;
  }

  set(ports: number[]): void {
    this.backends = ports;
  }

  add(port: number): void {
    this.backends = [...this.backends, port];
  }

  /** Probes each backend's `probePath` every `periodMs`; one that fails leaves the rotation `propagationMs` later. */
  watchReadiness(probePath: string, periodMs: number, propagationMs: number): void {
    this.watching = setInterval(() => {
      for (const port of this.backends) {
        if (this.leaving.has(port)) continue;
        void fetch(`http://127.0.0.1:${port}${probePath}`, { signal: AbortSignal.timeout(periodMs) })
          .then((r) => r.status === 200)
          .catch(() => false)
          .then((ready) => {
            if (ready || this.leaving.has(port)) return;
            this.leaving.add(port);
            setTimeout(() => {
              this.backends = this.backends.filter((p) => p !== port);
              this.removedAt.set(port, performance.now());
            }, propagationMs);
          });
      }
    }, periodMs);
  }

  async close(): Promise<void> {
    clearInterval(this.watching);
    for (const s of this.open) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}
