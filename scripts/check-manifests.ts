/**
 * Renders the Kustomize base and every overlay in deploy/ and checks them against the Kubernetes
 * schemas (strict) and the deployment's rules: `node scripts/check-manifests.ts`. The same checks
 * run in `make test` (tests/e2e/deploy-manifests.test.ts).
 */
import { checkJobs, checkTarget, JOB_TARGETS, TARGETS } from "./lib/k8s-manifests.ts";

let failed = false;
for (const target of TARGETS) {
  const { objects, problems } = await checkTarget(target);
  failed ||= problems.length > 0;
  console.log(`${problems.length === 0 ? "ok  " : "FAIL"} ${target} (${objects.length} objects)`);
  for (const p of problems) console.log(`     ${p}`);
}
for (const target of JOB_TARGETS) {
  const { objects, problems } = await checkJobs(target);
  failed ||= problems.length > 0;
  console.log(`${problems.length === 0 ? "ok  " : "FAIL"} ${target} (${objects.length} objects)`);
  for (const p of problems) console.log(`     ${p}`);
}
process.exitCode = failed ? 1 : 0;
