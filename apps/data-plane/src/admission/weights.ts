import type { Deployment } from "@gateway/proto";

/**
 * Deployment order for one request: by priority (lowest first); deployments of equal priority in a
 * weighted random order (weight 0 counts as 1), so traffic splits by weight and the rest remain
 * fallbacks.
 */
export function orderDeployments(deployments: readonly Deployment[], random: () => number = Math.random): readonly Deployment[] {
  // The common case (every deployment its own priority, already in order): the list as it is.
  let ordered = true;
  for (let i = 1; i < deployments.length && ordered; i++) ordered = deployments[i - 1]!.priority < deployments[i]!.priority;
  if (ordered) return deployments;
  const byPriority = new Map<number, Deployment[]>();
  for (const d of deployments) byPriority.set(d.priority, [...(byPriority.get(d.priority) ?? []), d]);
  const out: Deployment[] = [];
  for (const p of [...byPriority.keys()].sort((a, b) => a - b)) {
    const group = [...byPriority.get(p)!];
    while (group.length) {
      const total = group.reduce((s, d) => s + Math.max(1, d.weight), 0);
      let r = random() * total;
      let i = 0;
      for (; i < group.length - 1; i++) {
        r -= Math.max(1, group[i]!.weight);
        if (r < 0) break;
      }
      out.push(group.splice(i, 1)[0]!);
    }
  }
  return out;
}
