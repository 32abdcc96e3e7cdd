import type { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { TextCollector } from "../guardrails/index.js";
import type { MessagesHeaders, ParsedChatResponse, StreamCollector, StreamParser, StreamPassthrough, UpstreamHttpRequest, UpstreamTarget, WireAdapter } from "../providers/types.js";
import type { ChatRequestBody, MessagesRequestBody, ResponsesRequestBody } from "../providers/types.js";
import type { ClientShape } from "./client-shape.js";
import type { ResponseEcho } from "./responses-output.js";

/**
 * One request on its way to one provider kind: the body already in the provider's wire format
 * (translated once, for every deployment of that kind), how to call it, and the client's shape of
 * what comes back.
 */
export interface Translation {
  /** The upstream request to one deployment (built once per deployment in a row: admission measures it, the attempt sends it). */
  request(target: UpstreamTarget): UpstreamHttpRequest;
  /** A 200 answer, model id public. */
  parse(json: unknown): ParsedChatResponse;
  /** A parser for one upstream stream from this deployment. */
  streamParser(target: UpstreamTarget): StreamParser;
  /**
   * The passthrough reading of one upstream stream, when the client's shape is the provider's wire
   * format (chat completions to a chat-completions server, Messages to Anthropic); else undefined.
   */
  passthrough(target: UpstreamTarget): StreamPassthrough | undefined;
  /**
   * The answer read whole from one upstream stream of this deployment, when the request was
   * translated streamed for a client that wants a whole answer (admission/admit.ts `collected`);
   * undefined where the provider's answers cannot be read from its streams (see `collects`).
   */
  collector(target: UpstreamTarget): StreamCollector | undefined;
  /** Whether the provider's answers can be read from its streams (WireAdapter.collect). */
  readonly collects: boolean;
  mapError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError;
  /** The client API's shape of the answer and the stream. */
  shape: ClientShape;
  /** The provider answer's texts, for output guardrails (before the client's shape is built from it). */
  answerTexts(answer: Record<string, unknown>): TextCollector<Record<string, unknown>>;
  /** Request features this provider kind cannot take and the translation left out (x-gateway-dropped-params). */
  readonly dropped: readonly string[];
}

/** A wire adapter bound to the body it sends: the adapter and its body type meet only here. */
class Bound<B> implements Translation {
  constructor(
    private readonly adapter: WireAdapter<B>,
    private readonly body: B,
    private readonly publicModel: string,
    readonly shape: ClientShape,
    readonly answerTexts: (answer: Record<string, unknown>) => TextCollector<Record<string, unknown>>,
    private readonly native: boolean,
    readonly dropped: readonly string[],
  ) {}
  /** The request last built, and for which deployment: admission builds it to bound it, the attempt sends it. */
  private built: { target: UpstreamTarget; request: UpstreamHttpRequest } | undefined;
  request(target: UpstreamTarget): UpstreamHttpRequest {
    const built = this.built;
    if (built?.target === target) return built.request;
    const request = this.adapter.buildChatRequest(this.body, target);
    this.built = { target, request };
    return request;
  }
  parse(json: unknown): ParsedChatResponse {
    return this.adapter.parseChatResponse(json, this.publicModel, this.body);
  }
  streamParser(target: UpstreamTarget): StreamParser {
    return this.adapter.streamParser(this.publicModel, target.deployment.upstream_model, this.body, this.native);
  }
  passthrough(target: UpstreamTarget): StreamPassthrough | undefined {
    return this.native ? this.adapter.passthrough?.(this.publicModel, target.deployment.upstream_model, this.body) : undefined;
  }
  collector(target: UpstreamTarget): StreamCollector | undefined {
    return this.adapter.collect?.(this.publicModel, target.deployment.upstream_model, this.body);
  }
  get collects(): boolean {
    return this.adapter.collect !== undefined;
  }
  mapError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError {
    return this.adapter.mapError(status, bodyText, retryAfter);
  }
}

/**
 * `native`: the client's shape is the adapter's wire format (its frames go out as they came), so
 * streams may be relayed by the adapter's passthrough.
 */
export function bind<B>(
  adapter: WireAdapter<B>,
  body: B,
  model: Model,
  shape: ClientShape,
  answerTexts: (answer: Record<string, unknown>) => TextCollector<Record<string, unknown>>,
  native = false,
  dropped: readonly string[] = [],
): Translation {
  return new Bound(adapter, body, model.id, shape, answerTexts, native, dropped);
}

/** The client APIs of chat models. */
export type ClientApi = "chat" | "messages" | "responses";

/** What a chat-completions request brings to its translators. */
export interface ChatClientRequest {
  body: ChatRequestBody;
  model: Model;
}

/** What a Messages request brings: its body and the headers a native passthrough forwards. */
export interface MessagesClientRequest {
  body: MessagesRequestBody;
  headers: MessagesHeaders;
  model: Model;
}

/** What a Responses request brings: its body (earlier turns included), its Response's echo, and its storage. */
export interface ResponsesClientRequest {
  body: ResponsesRequestBody;
  /** The body in the chat shape, translated once when a deployment needs it. */
  chat(): ChatRequestBody;
  echo: ResponseEcho;
  /** Stores a complete Response (absent: `store: false`); resolves whether it was stored. */
  keep: ((response: Record<string, unknown>) => Promise<boolean>) | undefined;
  headers: MessagesHeaders;
  model: Model;
}

export interface ClientRequests {
  chat: ChatClientRequest;
  messages: MessagesClientRequest;
  responses: ResponsesClientRequest;
}

/** How one client API reaches one provider wire format; throws a 400 for a body with no equivalent there. */
export type Translator<A extends ClientApi> = (request: ClientRequests[A]) => Translation;
