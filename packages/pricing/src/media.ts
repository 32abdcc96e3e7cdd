import type { ImagePrice, VideoPrice } from "@gateway/proto";

/**
 * The price of one image of `size` and `quality` (undefined: the model's default size, `standard`):
 * the exact size and quality first, then wildcards; undefined when the model prices no such image.
 */
export function imageUnitPrice(prices: readonly ImagePrice[], defaultSize: string, size: string | undefined, quality: string | undefined): number | undefined {
  // Without a size the model's default applies, as the OpenAI API defaults it.
  const s = size ?? (defaultSize || "*");
  const q = quality ?? "standard";
  const hit =
    prices.find((x) => x.size === s && x.quality === q) ??
    prices.find((x) => x.size === s && x.quality === "*") ??
    prices.find((x) => x.size === "*" && x.quality === q) ??
    prices.find((x) => x.size === "*" && x.quality === "*");
  return hit?.price_minor;
}

/** Price per second of video (with audio when asked) for a resolution: the exact label first, then `*`. */
export function videoPricePerSecond(prices: readonly VideoPrice[], resolution: string, audio: boolean): number | undefined {
  const p = prices.find((x) => x.resolution === resolution) ?? prices.find((x) => x.resolution === "*");
  if (!p) return undefined;
  return p.price_minor_per_second + (audio ? p.audio_price_minor_per_second : 0);
}
