import type { ProviderKind } from "../types.js";
import { falVideo } from "./fal.js";
import { openAIVideo } from "./openai.js";
import type { VideoAdapter } from "./types.js";

export * from "./types.js";
export { openAISize } from "./openai.js";

/** The video adapter of a provider kind, or undefined when the kind has no video API here. */
export function videoAdapterFor(kind: ProviderKind): VideoAdapter | undefined {
  switch (kind) {
    case "openai":
    case "openai-compatible":
      return openAIVideo;
    case "fal":
      return falVideo;
    case "anthropic":
      return undefined;
    default: {
      const never: never = kind;
      throw new Error(`unknown provider kind ${String(never)}`);
    }
  }
}
