/** How gatewayctl's human output says a budget: its cap and when its spend starts again. */
export function budgetText(b: { limit_minor: number; window: string } | null | undefined): string {
  if (!b || b.limit_minor === 0) return "no cap";
  return b.window === "none" ? `${b.limit_minor} minor units in all (never resets)` : `${b.limit_minor} minor units per ${b.window}`;
}
