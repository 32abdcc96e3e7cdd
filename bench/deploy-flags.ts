import { imageNodeFlags } from "../scripts/lib/image.ts";

/**
 * The data-plane's node flags as its image runs it (NODE_OPTIONS of the data-plane stage in
 * deploy/Dockerfile, which the manifests keep), so the benchmarks measure the process production runs.
 */
export const DEPLOY_NODE_FLAGS: string[] = imageNodeFlags("data-plane");
