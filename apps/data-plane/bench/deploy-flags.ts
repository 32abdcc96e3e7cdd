import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The data-plane's node flags as deployed (NODE_OPTIONS in deploy/k8s/data-plane.yaml), so the
 * benchmarks measure the process production runs.
 */
export const DEPLOY_NODE_FLAGS: string[] = (
  /name: NODE_OPTIONS, value: "([^"]*)"/.exec(readFileSync(resolve(import.meta.dirname, "../../../deploy/k8s/data-plane.yaml"), "utf8"))?.[1] ?? ""
)
  .split(/\s+/)
  .filter(Boolean);
