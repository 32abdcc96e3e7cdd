import type { FakeUpstream, RecordedRequest } from "@gateway/fake-upstream";

/** What the provider itself reported: input and output tokens (cache reads and writes apart where it counts them). */
export interface ProviderUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * The usage the fake provider reported for the last request whose body contains `marker`, read from
 * its own answer (the JSON, or the usage events of its stream): the independent side of a cost
 * check, never the gateway's reported usage. OpenAI-shaped answers (chat, and the Responses API's
 * `response.usage`) and Gemini's count cached tokens inside the prompt; Anthropic's apart.
 */
export function providerUsage(fake: FakeUpstream, marker: string): ProviderUsage {
  const req = [...fake.requests].reverse().find((r) => JSON.stringify(r.body ?? "").includes(marker) && r.answer !== undefined);
  if (!req?.answer) throw new Error(`the fake has no answer for a request containing ${JSON.stringify(marker)}`);
  return answerUsage(req);
}

/** The usage the fake reported in its answer to one request. */
export function answerUsage(req: RecordedRequest): ProviderUsage {
  if (req.answer === undefined) throw new Error(`the fake has not answered ${req.path} yet`);
  const usages: Array<Record<string, unknown>> = [];
  const collect = (j: Record<string, unknown>) => {
    const u = (j.usage ?? (j.message as { usage?: unknown } | undefined)?.usage ?? (j.response as { usage?: unknown } | undefined)?.usage) as Record<string, unknown> | null | undefined;
    if (u && typeof u === "object") usages.push(u);
    // Gemini's: the thoughts are output tokens too.
    const g = j.usageMetadata as Record<string, number> | undefined;
    if (g && typeof g === "object" && g.promptTokenCount !== undefined)
      usages.push({
        prompt_tokens: g.promptTokenCount,
        completion_tokens: (g.candidatesTokenCount ?? 0) + (g.thoughtsTokenCount ?? 0),
        prompt_tokens_details: { cached_tokens: g.cachedContentTokenCount ?? 0 },
      });
  };
  const answer = req.answer.trimStart();
  if (answer.startsWith("{")) collect(JSON.parse(answer) as Record<string, unknown>);
  else for (const line of answer.split("\n")) if (line.startsWith("data: {")) collect(JSON.parse(line.slice(6)) as Record<string, unknown>);
  if (!usages.length) throw new Error("the fake's answer carries no usage");
  // Anthropic spreads usage over message_start and message_delta: later counts win, earlier ones stay.
  const u = Object.assign({}, ...usages) as Record<string, number>;
  const n = (k: string) => Number(u[k] ?? 0);
  if ("prompt_tokens" in u)
    return {
      input: n("prompt_tokens"),
      output: n("completion_tokens"),
      cacheRead: Number((u.prompt_tokens_details as unknown as { cached_tokens?: number } | undefined)?.cached_tokens ?? 0),
      cacheWrite: 0,
    };
  return { input: n("input_tokens"), output: n("output_tokens"), cacheRead: n("cache_read_input_tokens"), cacheWrite: n("cache_creation_input_tokens") };
}
