import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { Planned } from "../../admission/plan.js";
import { anthropicChat } from "../../providers/anthropic/chat.js";
import { geminiChat } from "../../providers/gemini/chat.js";
import { openAICompatibleChat } from "../../providers/openai-compatible/chat.js";
import { openAIChat } from "../../providers/openai/index.js";
import type { ProviderKind, UpstreamTarget } from "../../providers/types.js";
import type { ClientApi, ClientRequests, Translation, Translator } from "../translation.js";
import { chatTo } from "./chat.js";
import { messagesToAnthropic } from "./messages-native.js";
import { messagesThroughChat } from "./messages-through-chat.js";
import { responsesToOpenAI } from "./responses-native.js";
import { responsesToAnthropic } from "./responses-messages.js";
import { responsesThroughChat } from "./responses-through-chat.js";

const compatible = openAICompatibleChat();
/** A model the catalog prices reasoning tokens for is a reasoning model: it takes `reasoning_effort`. */
const pricedReasoning = (m: Model) => m.reasoning_price_minor_per_mtok !== undefined;

/**
 * How each client API reaches each provider kind: one translator per pair, natively where the
 * provider speaks the client's API. Through a chat adapter, the output limit the hold covered goes
 * in the field that kind reads: OpenAI's reasoning models refuse `max_tokens`, OpenAI-compatible
 * servers read it; the Anthropic and Gemini adapters read either. A new provider kind is a compile error here until each client
 * API has its entry (undefined: the kind serves no chat model, like video-only fal).
 */
export const TRANSLATORS: { [A in ClientApi]: Record<ProviderKind, Translator<A> | undefined> } = {
  chat: {
    openai: chatTo(openAIChat, "max_completion_tokens"),
    "openai-compatible": chatTo(compatible, "max_tokens"),
    anthropic: chatTo(anthropicChat, "max_tokens"),
    gemini: chatTo(geminiChat, "max_tokens"),
    fal: undefined,
  },
  messages: {
    openai: messagesThroughChat(openAIChat, "max_completion_tokens", pricedReasoning),
    "openai-compatible": messagesThroughChat(compatible, "max_tokens", pricedReasoning),
    anthropic: messagesToAnthropic,
    // Gemini's adapter turns reasoning_effort into its thinking budget or level.
    gemini: messagesThroughChat(geminiChat, "max_tokens", () => true),
    fal: undefined,
  },
  responses: {
    openai: responsesToOpenAI,
    "openai-compatible": responsesThroughChat(compatible, "max_tokens"),
    anthropic: responsesToAnthropic,
    gemini: responsesThroughChat(geminiChat, "max_tokens"),
    fal: undefined,
  },
};

/** A planned deployment with the request already translated for it. */
export interface Routed {
  target: UpstreamTarget;
  translation: Translation;
}

/**
 * The planned deployments paired with the request translated for their provider kind (once per
 * kind, in routing order). A deployment the body cannot go to (a field with no equivalent there) is
 * left out; when none is left, that 400 is the answer, before any attempt.
 */
export function translateFor<A extends ClientApi>(api: A, planned: readonly Planned<"chat">[], request: ClientRequests[A]): Routed[] {
  const byKind = new Map<ProviderKind, Translation | GatewayError>();
  const routed: Routed[] = [];
  let refused: GatewayError | undefined;
  for (const p of planned) {
    const kind = p.target.provider.kind;
    let t = byKind.get(kind);
    if (t === undefined) {
      const translator = TRANSLATORS[api][kind];
      try {
        t = translator ? translator(request) : new GatewayError("model_unavailable", `The provider kind '${kind}' cannot serve the ${api} route.`);
      } catch (err) {
        if (!(err instanceof GatewayError)) throw err;
        t = err;
      }
      byKind.set(kind, t);
    }
    if (t instanceof GatewayError) refused ??= t;
    else routed.push({ target: p.target, translation: t });
  }
  if (routed.length === 0) throw refused ?? new GatewayError("model_unavailable", "No provider could serve the request.");
  return routed;
}
