import type { Model } from "@gateway/proto";
import { chatTo } from "../translate/pairs/chat.js";
import { messagesToAnthropic } from "../translate/pairs/messages-native.js";
import { messagesThroughChat } from "../translate/pairs/messages-through-chat.js";
import { responsesToOpenAI } from "../translate/pairs/responses-native.js";
import { responsesToAnthropic } from "../translate/pairs/responses-messages.js";
import { responsesThroughChat } from "../translate/pairs/responses-through-chat.js";
import type { ClientApi, Translator } from "../translate/translation.js";
import { anthropicChat } from "./anthropic/chat.js";
import { anthropicMessages } from "./anthropic/messages.js";
import { geminiChat } from "./gemini/chat.js";
import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { openAIEmbeddings, openAIImages } from "./openai-compatible/json-apis.js";
import { openAIChat } from "./openai/index.js";
import { openAIResponses } from "./openai/responses.js";
import type { MessagesAdapter, MessagesHeaders, ProviderAdapter, ProviderKind } from "./types.js";
import { falVideo } from "./video/fal.js";
import { openAIVideo } from "./video/openai.js";

/** What one provider kind is to the gateway: what it can do, and how each client API reaches it. */
export interface ProviderEntry {
  /** Its adapters by capability (planning keeps the deployments whose kind has the route's). */
  capabilities: ProviderAdapter;
  /**
   * How each client API's body becomes the kind's upstream request (translate/pairs/): natively
   * where the provider speaks the client's API, straight to its wire format where the shapes are
   * close, else through its chat adapter; undefined: the kind serves no chat model.
   */
  translators: { [A in ClientApi]: Translator<A> | undefined };
  /** POST /v1/messages/count_tokens at the provider (undefined: the gateway counts, routes/count-tokens.ts). */
  countTokens?: (headers: MessagesHeaders) => MessagesAdapter;
  /**
   * The body sent depends on the deployment beyond its model's name (Gemini: thought signatures and
   * the thinking configuration by model generation), so admission builds and bounds it per deployment.
   */
  bodyPerDeployment?: true;
}

const compatible = openAICompatibleChat();
/** A model the catalog prices reasoning tokens for is a reasoning model: it takes `reasoning_effort`. */
const pricedReasoning = (m: Model) => m.reasoning_price_minor_per_mtok !== undefined;

/**
 * Every provider kind, in one table: a new kind is a compile error here until it has its entry.
 * Through a chat adapter, the output limit the hold covered goes in the field that kind reads:
 * OpenAI's reasoning models refuse `max_tokens`, OpenAI-compatible servers read it; the Anthropic and
 * Gemini adapters read either.
 */
export const PROVIDERS: Record<ProviderKind, ProviderEntry> = {
  openai: {
    capabilities: { chat: openAIChat, responses: openAIResponses, embeddings: openAIEmbeddings, images: openAIImages, video: openAIVideo },
    translators: {
      chat: chatTo(openAIChat, "max_completion_tokens"),
      messages: messagesThroughChat(openAIChat, "max_completion_tokens", pricedReasoning),
      responses: responsesToOpenAI,
    },
  },
  "openai-compatible": {
    capabilities: { chat: compatible, embeddings: openAIEmbeddings, images: openAIImages, video: openAIVideo },
    translators: {
      chat: chatTo(compatible, "max_tokens"),
      messages: messagesThroughChat(compatible, "max_tokens", pricedReasoning),
      responses: responsesThroughChat(compatible, "max_tokens"),
    },
  },
  anthropic: {
    capabilities: { chat: anthropicChat, messages: anthropicMessages },
    translators: { chat: chatTo(anthropicChat, "max_tokens"), messages: messagesToAnthropic, responses: responsesToAnthropic },
    countTokens: anthropicMessages,
  },
  gemini: {
    capabilities: { chat: geminiChat },
    bodyPerDeployment: true,
    // Gemini's adapter turns reasoning_effort into its thinking budget or level.
    translators: { chat: chatTo(geminiChat, "max_tokens"), messages: messagesThroughChat(geminiChat, "max_tokens", () => true), responses: responsesThroughChat(geminiChat, "max_tokens") },
  },
  fal: {
    capabilities: { video: falVideo },
    translators: { chat: undefined, messages: undefined, responses: undefined },
  },
};
