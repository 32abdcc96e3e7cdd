/**
 * Cools down a failing deployment: after `threshold` consecutive retryable failures it is skipped
 * for `cooldownMs`, then one request may try it again (half-open); a success closes it. Bounded:
 * one small entry per deployment in the catalog.
 */
export class CircuitBreaker {
  private readonly state = new Map<string, { failures: number; openUntil: number }>();

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  static key(provider: string, upstreamModel: string): string {
    return `${provider}\u0000${upstreamModel}`;
  }

  /** True while the deployment is cooling down. */
  isOpen(key: string): boolean {
    const s = this.state.get(key);
    return s !== undefined && s.openUntil > this.now();
  }

  failure(key: string): void {
    const s = this.state.get(key) ?? { failures: 0, openUntil: 0 };
    s.failures++;
    if (s.failures >= this.threshold) {
      s.openUntil = this.now() + this.cooldownMs;
      s.failures = this.threshold - 1; // half-open after the cooldown: one more failure reopens
    }
    this.state.set(key, s);
    if (this.state.size > 10_000) this.state.delete(this.state.keys().next().value!);
  }

  success(key: string): void {
    this.state.delete(key);
  }

  /** Deployments cooling down now (the gauge an alert watches). */
  get openCount(): number {
    const now = this.now();
    let n = 0;
    for (const s of this.state.values()) if (s.openUntil > now) n++;
    return n;
  }
}
