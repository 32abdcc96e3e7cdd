/**
 * How long a provider may have spent reasoning where the stream shows none of it: the time a stream
 * cut short (the client left past the drain window, the provider broke off) is billed hidden
 * reasoning for, at the model's catalog output rate (docs/billing.md, "Streams that end without
 * usage"). Two kinds of phase count:
 *
 * - the opening one, from the moment the request was sent to the first generated output the client
 *   would see (a reasoning model thinks before it answers; chat completions never stream it), for
 *   wire formats that do not announce their reasoning;
 * - phases the provider announces (a Responses `reasoning` item, an Anthropic `thinking` block),
 *   from their start to their end, whatever they stream meanwhile (a summary is shorter than the
 *   reasoning billed).
 *
 * Time spent streaming an answer is not counted: a model writing visible tokens is not reasoning.
 */
export class HiddenTime {
  /** When the current phase began; undefined while the provider is answering visibly. */
  private since: number | undefined;
  /** The current phase was announced by the provider: only its end closes it. */
  private announcing = false;
  private total = 0;
  private stoppedAt: number | undefined;

  /** `sentAt`: when the request went to the provider, on the clock `now` reads (ms). */
  constructor(
    private readonly now: () => number,
    readonly sentAt: number = now(),
  ) {
    this.since = sentAt;
  }

  /**
   * The wire format announces its reasoning phases (StreamParser.announcesReasoning): the quiet
   * before the first output is not taken for reasoning, only the phases it announces are.
   */
  announced(): void {
    if (!this.announcing) this.since = undefined;
  }

  /** Generated output the client would see: the opening phase ends (an announced one goes on). */
  visible(): void {
    if (this.since !== undefined && !this.announcing) this.close();
  }

  /** The provider announced that a reasoning phase began (true) or ended (false). */
  thinking(on: boolean): void {
    if (on) {
      this.since ??= this.now();
      this.announcing = true;
    } else {
      if (this.since !== undefined) this.close();
      this.announcing = false;
    }
  }

  /** The stream ended or was cancelled: nothing after this counts. */
  stop(): void {
    this.stoppedAt ??= this.now();
  }

  /** Milliseconds the provider may have spent reasoning unseen, up to the stop (or now). */
  ms(): number {
    const end = this.stoppedAt ?? this.now();
    return this.total + (this.since !== undefined ? Math.max(0, end - this.since) : 0);
  }

  private close(): void {
    const at = this.stoppedAt ?? this.now();
    this.total += Math.max(0, at - this.since!);
    this.since = undefined;
  }
}
