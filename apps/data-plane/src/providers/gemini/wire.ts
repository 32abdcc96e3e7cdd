/**
 * The parts of Google's Gemini API (`generativelanguage.googleapis.com/v1beta`, `generateContent`
 * and `streamGenerateContent?alt=sse`) the gateway sends and reads, in its REST (camelCase JSON)
 * form. Declared here because the official `@google/genai` package is not a dependency; names and
 * meanings follow its `types.ts` and the API reference.
 */

/** Bytes inline, base64 (images, audio, PDFs). */
export interface GeminiBlob {
  mimeType: string;
  data: string;
}

/** Media by URI (a Files API URI or a public URL). */
export interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
}

export interface GeminiFunctionCall {
  /** Present on some models and on the Vertex API; matched back in functionResponse.id. */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** A JSON object: `{output: …}` or `{error: …}` by convention, else the whole object is the output. */
  response: Record<string, unknown>;
}

/** One part of a turn: exactly one of text, inlineData, fileData, functionCall, functionResponse. */
export interface GeminiPart {
  text?: string;
  /** A thought summary (`includeThoughts`): reasoning, never the answer. */
  thought?: boolean;
  /**
   * The model's opaque reasoning state for this part (base64). Gemini 3 requires the one on the
   * first functionCall part of each step back in the next request, on that same part.
   */
  thoughtSignature?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
  role?: "user" | "model";
  parts?: GeminiPart[];
}

/** The OpenAPI 3.0 subset of JSON Schema Gemini takes (`responseSchema`, function `parameters`). */
export interface GeminiSchema {
  type?: "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT";
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  /** The order the model writes the properties in (else alphabetical). */
  propertyOrdering?: string[];
  minProperties?: number;
  maxProperties?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: GeminiSchema[];
  default?: unknown;
  example?: unknown;
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
}

export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
}

export interface GeminiToolConfig {
  functionCallingConfig: { mode: "AUTO" | "ANY" | "NONE"; allowedFunctionNames?: string[] };
}

/** Gemini 2.5 takes a token budget, Gemini 3 a level; one request may not carry both. */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: "low" | "high";
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  maxOutputTokens?: number;
  candidateCount?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: GeminiSchema;
  thinkingConfig?: GeminiThinkingConfig;
}

/** The body of `models/{model}:generateContent` and `:streamGenerateContent`. */
export interface GenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
}

/**
 * Token counts. `promptTokenCount` includes the cached ones (`cachedContentTokenCount`, explicit or
 * implicit caching); `candidatesTokenCount` (all candidates) excludes the thinking, counted apart in
 * `thoughtsTokenCount` and billed as output; tool-use prompts (built-in tools' results fed back)
 * are `toolUsePromptTokenCount`, billed as input.
 */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

export interface GeminiCandidate {
  content?: GeminiContent;
  /** STOP, MAX_TOKENS, SAFETY, RECITATION, LANGUAGE, OTHER, BLOCKLIST, PROHIBITED_CONTENT, SPII, MALFORMED_FUNCTION_CALL, IMAGE_SAFETY … */
  finishReason?: string;
  finishMessage?: string;
  index?: number;
}

/** An answer, or one event of a stream (the same shape, each carrying its share of the parts). */
export interface GenerateContentResponse {
  candidates?: GeminiCandidate[];
  /** Set instead of candidates when the prompt itself was blocked. */
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

/** Every error body: a google.rpc.Status. */
export interface GeminiErrorBody {
  error?: {
    code?: number;
    message?: string;
    /** The canonical code name: INVALID_ARGUMENT, RESOURCE_EXHAUSTED, UNAVAILABLE … */
    status?: string;
    details?: Array<{ "@type"?: string; reason?: string; retryDelay?: string }>;
  };
}
