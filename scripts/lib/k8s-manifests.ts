import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { parseAllDocuments } from "yaml";
import { loadConfig as loadLedgerConfig } from "@gateway/ledger";
import { imageEnv } from "./image.ts";
import { NATS_ENV_PREFIX, NATS_PASSWORD_ENV, NATS_USERS, authorizationBlock, natsSecretName } from "./nats-auth.ts";

/**
 * Checks of the Kubernetes manifests in deploy/: rendering (Kustomize, through `kubectl kustomize`),
 * the Kubernetes schemas, and the rules this deployment depends on (probes, requests, budgets, the
 * NATS cluster's size against the stream replicas, NATS's users and permissions, the image's node
 * flags kept).
 *
 * The schemas are the Kubernetes OpenAPI definitions as the `kubernetes-models` package carries them,
 * applied twice: its validators (generated from the OpenAPI schemas) check types, required fields,
 * enums and formats (a quantity, an int32), and its TypeScript declarations (generated from the same
 * definitions) are the strict pass: every document is type-checked as an object literal of its kind,
 * so a field the API does not have, at any depth, is an error, as `kubectl apply --validate=strict`
 * makes it.
 */

export const root = resolve(import.meta.dirname, "../..");
/** The Kustomize base and the overlays on it; every one of them renders to manifests that must pass. */
export const TARGETS = ["deploy/k8s", "deploy/overlays/small", "deploy/overlays/production"] as const;
/** The Jobs an operator applies by hand (gatewayctl's, the recovery's), alone and for overlays/production. */
export const JOB_TARGETS = ["deploy/tools", "deploy/overlays/production/tools", "deploy/recovery", "deploy/overlays/production/recovery"] as const;

/** One Kubernetes object as YAML gives it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** `kubectl kustomize <dir>`: the manifests an `kubectl apply -k <dir>` would send. Throws kubectl's error. */
export function render(dir: string): string {
  try {
    return execFileSync("kubectl", ["kustomize", resolve(root, dir)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") throw new Error("kubectl not found: `make bootstrap` installs it (Kustomize is built into kubectl)");
    throw new Error(`kubectl kustomize ${dir}: ${e.stderr?.trim() || e.message}`);
  }
}

/** The documents of a YAML stream; a YAML error is thrown with its position. */
export function parseManifests(text: string): K8sObject[] {
  const docs = parseAllDocuments(text);
  const out: K8sObject[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join("\n"));
    const value = doc.toJS() as K8sObject | null;
    if (value !== null) out.push(value);
  }
  return out;
}

const id = (o: K8sObject) => `${o.kind}/${o.metadata?.name ?? "?"}`;

/**
 * The packages whose models the objects are checked against: the Kubernetes API, and the custom
 * resources the production overlay uses (cert-manager's certificates and issuers, the Prometheus
 * Operator's ServiceMonitors and rules), generated from those projects' CRD schemas the same way.
 */
const MODEL_PACKAGES = ["kubernetes-models", "@kubernetes-models/cert-manager", "@kubernetes-models/prometheus-operator"];

/** The package that models `apiVersion` `kind`, or undefined when none does (not a kind we know). */
function modelPackage(o: K8sObject): string | undefined {
  return MODEL_PACKAGES.find((pkg) => existsSync(join(root, "node_modules", pkg, o.apiVersion, `${o.kind}.d.ts`)));
}

/** Type-checks each object as an object literal of `I<Kind>` from kubernetes-models: unknown fields, wrong types, missing required fields. */
function strictProblems(objects: K8sObject[]): string[] {
  const file = join(root, "deploy", "__manifests__.ts");
  const lines: string[] = [];
  const owners: Array<{ line: number; name: string }> = [];
  const known = objects.filter((o) => modelPackage(o) !== undefined);
  known.forEach((o, i) => {
    lines.push(`import type { I${o.kind} as T${i} } from "${modelPackage(o)}/${o.apiVersion}/${o.kind}";`);
  });
  known.forEach((o, i) => {
    owners.push({ line: lines.length, name: id(o) });
    lines.push(`export const m${i}: T${i} = ${JSON.stringify(o, null, 1)};`.replace(/\n/g, " "));
  });
  const source = lines.join("\n");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => (resolve(name) === file ? ts.createSourceFile(name, source, lang) : getSourceFile(name, lang, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const sf = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, sf).map((d) => {
    const line = d.start === undefined ? -1 : sf.getLineAndCharacterOfPosition(d.start).line;
    const owner = owners.findLast((o) => o.line <= line);
    return `${owner?.name ?? "manifests"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

/** kubernetes-models' OpenAPI validators: types, formats (quantities, int32), enums, required fields. */
async function schemaProblems(objects: K8sObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const o of objects) {
    if (typeof o.apiVersion !== "string" || typeof o.kind !== "string") {
      problems.push(`${id(o)}: apiVersion and kind are required`);
      continue;
    }
    const pkg = modelPackage(o);
    const path = join(root, "node_modules", pkg ?? "kubernetes-models", o.apiVersion, `${o.kind}.js`);
    if (!pkg) {
      problems.push(`${id(o)}: ${o.apiVersion} ${o.kind} is not a kind of the Kubernetes API`);
      continue;
    }
    const url = pathToFileURL(path).href;
    const mod = (await import(url)) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = mod[o.kind]!;
    try {
      new Model(structuredClone(o)).validate();
    } catch (err) {
      problems.push(`${id(o)}: ${(err as Error).message}`);
    }
  }
  return problems;
}

/** Problems against the Kubernetes API schemas, strict (unknown fields are errors). Empty = valid. */
export async function validateSchemas(objects: K8sObject[]): Promise<string[]> {
  const problems = await schemaProblems(objects);
  return [...problems, ...strictProblems(objects)];
}

// --- The deployment's own rules ------------------------------------------------------------------

interface Probe {
  httpGet?: { path?: string; port: number | string };
}
interface Container {
  name: string;
  image?: string;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } } }>;
  ports?: Array<{ containerPort: number; name?: string }>;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string | number> };
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[] };
}
/** A Deployment or a StatefulSet. */
export interface Workload extends K8sObject {
  spec: { replicas?: number; serviceName?: string; selector: { matchLabels?: Record<string, string> }; template: PodTemplate };
}
interface Budget extends K8sObject {
  spec: { minAvailable?: number | string; maxUnavailable?: number | string; selector?: { matchLabels?: Record<string, string> } };
}
interface ServiceObject extends K8sObject {
  spec: { clusterIP?: string; selector?: Record<string, string>; ports: Array<{ port: number; targetPort?: number | string; name?: string }> };
}

export const workloads = (objects: K8sObject[]) => objects.filter((o): o is Workload => o.kind === "Deployment" || o.kind === "StatefulSet");
export const find = <T extends K8sObject>(objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name) as T | undefined;
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** The container port a probe or a Service names (by name or number), or undefined if the container has none such. */
export function resolvePort(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === "number") return container.ports?.some((p) => p.containerPort === port) ? port : undefined;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** The value of a container's environment variable set by `value`. */
export const envValue = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value;

/** Pods a budget lets a drain take at `replicas` pods (Kubernetes rounds a maxUnavailable percentage up, a minAvailable one up too). */
function disruptionsAllowed(b: Budget["spec"], replicas: number): number {
  const count = (v: number | string, up: boolean) => (typeof v === "number" ? v : (up ? Math.ceil : Math.floor)((Number.parseInt(v, 10) / 100) * replicas));
  if (b.maxUnavailable !== undefined) return Math.min(replicas, count(b.maxUnavailable, true));
  if (b.minAvailable !== undefined) return Math.max(0, replicas - count(b.minAvailable, true));
  return 0;
}

/** Rules of this deployment beyond the schemas, for objects that pass them. Empty = none broken. */
export function deploymentProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const services = objects.filter((o): o is ServiceObject => o.kind === "Service");
  const budgets = objects.filter((o): o is Budget => o.kind === "PodDisruptionBudget");
  for (const w of workloads(objects)) {
    const labels = w.spec.template.metadata?.labels;
    if (!matches(w.spec.selector.matchLabels, labels)) problems.push(`${id(w)}: the selector does not match the pod labels`);
    for (const c of w.spec.template.spec.containers) {
      for (const kind of ["readinessProbe", "livenessProbe"] as const) {
        const probe = c[kind];
        if (!probe) problems.push(`${id(w)} ${c.name}: no ${kind}`);
        else if (probe.httpGet && resolvePort(c, probe.httpGet.port) === undefined) problems.push(`${id(w)} ${c.name}: ${kind} port ${probe.httpGet.port} is not a container port`);
      }
      for (const r of ["cpu", "memory"]) if (c.resources?.requests?.[r] === undefined) problems.push(`${id(w)} ${c.name}: no ${r} request`);
    }
    const replicas = w.spec.replicas ?? 1;
    const own = budgets.filter((b) => matches(b.spec.selector?.matchLabels, labels));
    if (own.length !== 1) problems.push(`${id(w)}: ${own.length} PodDisruptionBudgets select its pods (want 1)`);
    for (const b of own) if (disruptionsAllowed(b.spec, replicas) < 1) problems.push(`${id(w)}: ${id(b)} allows no disruption at ${replicas} replicas, so every node drain would block`);
    if (w.kind === "StatefulSet") {
      const governing = find<ServiceObject>(objects, "Service", w.spec.serviceName ?? "");
      if (!governing || governing.spec.clusterIP !== "None") problems.push(`${id(w)}: serviceName ${w.spec.serviceName} is not a headless Service`);
    }
  }
  for (const s of services) {
    const backends = workloads(objects).filter((w) => matches(s.spec.selector, w.spec.template.metadata?.labels));
    if (backends.length === 0) problems.push(`${id(s)}: selects no pods`);
    for (const w of backends) {
      for (const p of s.spec.ports) {
        if (!w.spec.template.spec.containers.some((c) => resolvePort(c, p.targetPort ?? p.port) !== undefined))
          problems.push(`${id(s)}: port ${p.name ?? p.port} targets ${p.targetPort ?? p.port}, which ${id(w)} does not expose`);
      }
    }
  }
  for (const b of budgets) if (!workloads(objects).some((w) => matches(b.spec.selector?.matchLabels, w.spec.template.metadata?.labels))) problems.push(`${id(b)}: selects no pods`);
  for (const hpa of objects.filter((o) => o.kind === "HorizontalPodAutoscaler")) {
    const ref = (hpa.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
    if (!find(objects, ref.kind, ref.name)) problems.push(`${id(hpa)}: scales ${ref.kind}/${ref.name}, which does not exist`);
  }
  problems.push(...natsProblems(objects));
  problems.push(...shutdownProblems(objects));
  problems.push(...secretProblems(objects));
  problems.push(...natsAuthProblems(objects));
  problems.push(...imageProblems(objects));
  problems.push(...podSecurityProblems(objects));
  problems.push(...databaseRoleProblems(objects));
  problems.push(...tlsProblems(objects));
  problems.push(...monitoringProblems(objects));
  return problems;
}

// --- Pod Security ("restricted"), images, roles, TLS, monitoring ----------------------------------

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  procMount?: string;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type: string };
  seLinuxOptions?: { type?: string; user?: string; role?: string };
  appArmorProfile?: { type: string };
  sysctls?: Array<{ name: string }>;
}
interface PodSpec {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: SecurityContext;
  containers: Array<Container & { securityContext?: SecurityContext; ports?: Array<{ containerPort: number; name?: string; hostPort?: number }> }>;
  initContainers?: PodSpec["containers"];
  volumes?: Array<Record<string, unknown> & { name: string }>;
}

/** Every pod template of the objects (Deployments, StatefulSets, Jobs, CronJobs), with its owner. */
export function podTemplates(objects: K8sObject[]): Array<{ owner: K8sObject; spec: PodSpec }> {
  const out: Array<{ owner: K8sObject; spec: PodSpec }> = [];
  for (const o of objects) {
    const spec = o.spec as { template?: { spec: PodSpec }; jobTemplate?: { spec: { template: { spec: PodSpec } } } } | undefined;
    const pod = spec?.template?.spec ?? spec?.jobTemplate?.spec.template.spec;
    if (pod) out.push({ owner: o, spec: pod });
  }
  return out;
}

/** The volume types the "restricted" standard allows. */
const RESTRICTED_VOLUMES = new Set(["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"]);
/** Sysctls the "baseline" standard (and so "restricted") allows. */
const SAFE_SYSCTLS = new Set([
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.ip_unprivileged_port_start",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_local_reserved_ports",
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
]);

/**
 * The Pod Security Standards' "restricted" profile (kubernetes.io/docs/concepts/security/pod-security-standards,
 * with the "baseline" rules it includes), as the API server enforces it on a namespace labelled
 * pod-security.kubernetes.io/enforce: restricted (overlays/production's), and this deployment's
 * own rule on top: a read-only root file system for every container.
 */
export function podSecurityProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const { owner, spec } of podTemplates(objects)) {
    const who = id(owner);
    const pod = spec.securityContext ?? {};
    for (const host of ["hostNetwork", "hostPID", "hostIPC"] as const) if (spec[host]) problems.push(`${who}: ${host} is not allowed`);
    for (const v of spec.volumes ?? []) {
      const type = Object.keys(v).find((k) => k !== "name");
      if (type && !RESTRICTED_VOLUMES.has(type)) problems.push(`${who}: volume ${v.name} is a ${type} volume, which "restricted" does not allow`);
    }
    for (const s of pod.sysctls ?? []) if (!SAFE_SYSCTLS.has(s.name)) problems.push(`${who}: sysctl ${s.name} is not allowed`);
    const containers = [...(spec.initContainers ?? []), ...spec.containers];
    for (const c of containers) {
      const sc = c.securityContext ?? {};
      const where = `${who} ${c.name}`;
      if (sc.privileged) problems.push(`${where}: privileged`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: securityContext.allowPrivilegeEscalation must be false`);
      if (!(sc.capabilities?.drop ?? []).includes("ALL")) problems.push(`${where}: securityContext.capabilities.drop must include ALL`);
      for (const cap of sc.capabilities?.add ?? []) if (cap !== "NET_BIND_SERVICE") problems.push(`${where}: capability ${cap} may not be added`);
      if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) problems.push(`${where}: runAsNonRoot must be true (in the pod's or the container's securityContext)`);
      if ((sc.runAsUser ?? pod.runAsUser) === 0) problems.push(`${where}: runAsUser 0 (root)`);
      const seccomp = sc.seccompProfile?.type ?? pod.seccompProfile?.type;
      if (seccomp !== "RuntimeDefault" && seccomp !== "Localhost") problems.push(`${where}: seccompProfile must be RuntimeDefault or Localhost`);
      if ((sc.procMount ?? "Default") !== "Default") problems.push(`${where}: procMount must be Default`);
      if ((sc.appArmorProfile ?? pod.appArmorProfile)?.type === "Unconfined") problems.push(`${where}: appArmorProfile Unconfined`);
      const se = sc.seLinuxOptions ?? pod.seLinuxOptions;
      if (se && (se.user || se.role || (se.type && !["container_t", "container_init_t", "container_kvm_t", "container_engine_t"].includes(se.type))))
        problems.push(`${where}: seLinuxOptions not allowed`);
      for (const p of c.ports ?? []) if (p.hostPort) problems.push(`${where}: hostPort ${p.hostPort}`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem must be true (the image writes only to its volumes)`);
    }
  }
  return problems;
}

/**
 * Each gateway container against its image (deploy/Dockerfile): the Dockerfile has a stage for the
 * service, and a NODE_OPTIONS the manifest sets (which replaces the image's) keeps the image's flags,
 * so `docker run` and the pods run the same node.
 */
function imageProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const { owner, spec } of podTemplates(objects)) {
    for (const c of spec.containers) {
      // A release is a version: a tag that moves (none, :latest) would make a rollback apply nothing.
      const tag = /^(?:[^/]+\/)*[^/:@]+(?::([^@]+))?(?:@sha256:[0-9a-f]{64})?$/.exec(c.image ?? "");
      if (!tag || !((tag[1] && tag[1] !== "latest") || c.image?.includes("@sha256:")))
        problems.push(`${id(owner)} ${c.name}: image ${c.image} is not pinned to a version (deploy/release sets the gateway's)`);
    }
  }
  for (const w of workloads(objects)) {
    for (const c of w.spec.template.spec.containers) {
      // The image's name past the registry (deploy/release gives it one): gateway/<service>.
      const service = /(?:^|\/)gateway\/([a-z0-9-]+)(?::|@|$)/.exec(c.image ?? "")?.[1];
      if (service === undefined) continue;
      const env = imageEnv(service);
      if (env === undefined) {
        problems.push(`${id(w)} ${c.name}: deploy/Dockerfile has no stage ${service} to build ${c.image} from`);
        continue;
      }
      const own = c.env?.find((e) => e.name === "NODE_OPTIONS");
      if (own === undefined) continue;
      const flags = (own.value ?? "").split(/\s+/);
      const dropped = (env.NODE_OPTIONS ?? "").split(/\s+/).filter((f) => f && !flags.includes(f));
      if (own.valueFrom) problems.push(`${id(w)} ${c.name}: NODE_OPTIONS from a reference replaces the image's node flags unchecked; set it by value`);
      else if (dropped.length > 0) problems.push(`${id(w)} ${c.name}: its NODE_OPTIONS replaces the image's and drops ${dropped.join(" ")} (deploy/Dockerfile)`);
    }
  }
  return problems;
}

/** The NATS cluster against its configuration and against the replicas the services ask their streams for. */
function natsProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const nats = find<Workload>(objects, "StatefulSet", "nats");
  const conf = (find(objects, "ConfigMap", "nats-config")?.data as Record<string, string> | undefined)?.["nats.conf"];
  if (!nats || conf === undefined) return ["StatefulSet/nats with ConfigMap/nats-config (nats.conf) is required"];
  const nodes = nats.spec.replicas ?? 1;
  const routes = [...conf.matchAll(/nats:\/\/([a-z0-9-]+)\.([a-z0-9-]+):(\d+)/g)].map((m) => `${m[1]}.${m[2]}`);
  const want = Array.from({ length: nodes }, (_, i) => `nats-${i}.${nats.spec.serviceName}`);
  if (nodes === 1) {
    if (/\bcluster\s*\{/.test(conf)) problems.push("nats.conf: a single node must not configure a cluster (it would wait for a meta leader forever)");
    if (!/sync_interval:\s*always/.test(conf)) problems.push("nats.conf: a single node must fsync every write (sync_interval: always)");
  } else if (routes.join(" ") !== want.join(" ")) {
    problems.push(`nats.conf: routes ${routes.join(", ")} do not name the ${nodes} nodes (${want.join(", ")})`);
  }
  for (const w of workloads(objects)) {
    for (const c of w.spec.template.spec.containers) {
      for (const name of ["LEDGER_STREAM_REPLICAS", "DATA_PLANE_RESPONSES_REPLICAS"]) {
        const v = envValue(c, name);
        if (v !== undefined && Number(v) > nodes) problems.push(`${id(w)}: ${name}=${v} but NATS runs ${nodes} node(s); JetStream refuses such a stream`);
        if (v !== undefined && nodes >= 3 && Number(v) < 3) problems.push(`${id(w)}: ${name}=${v} on a ${nodes}-node cluster: an acknowledged event would not survive losing a node`);
      }
    }
  }
  problems.push(...natsSizingProblems(objects, nats, conf));
  return problems;
}

/** A service's workload and its container of the same name. */
function serviceContainer(objects: K8sObject[], service: string): { w: Workload | undefined; c: Container | undefined } {
  const w = workloads(objects).find((x) => x.metadata.name === service);
  return { w, c: w?.spec.template.spec.containers.find((x) => x.name === service) };
}

/**
 * Secrets a data-plane must share with every other replica and never with NATS (docs/security.md):
 * each from a Secret, so that all replicas get the same value.
 */
function secretProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const [service, names] of [
    ["data-plane", ["DATA_PLANE_RESPONSES_SECRET", "DATA_PLANE_USAGE_SIGNING_KEY", "DATA_PLANE_MCP_SESSION_SECRET"]],
    ["ledger", ["LEDGER_USAGE_SIGNING_KEYS"]],
    ["control-plane", ["CONTROL_PLANE_GRANT_SIGNING_KEY", "CONTROL_PLANE_SECRETS_KEY"]],
  ] as const) {
    const { w, c } = serviceContainer(objects, service);
    if (!w || !c) continue;
    for (const name of names) if (!c.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef) problems.push(`${id(w)}: ${name} must come from a Secret (every replica the same)`);
  }
  // The webhook allowlist lets an organization's alerts reach hosts the address rules refuse (tests, development).
  const { w, c } = serviceContainer(objects, "control-plane");
  if (w && c?.env?.some((e) => e.name === "CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS"))
    problems.push(`${id(w)}: CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS is for tests and development only: a deployment leaves it unset`);
  return problems;
}

/** Endpoint propagation (EndpointSlices to kube-proxy and ingress controllers) the pause must also cover, ms. */
const PROPAGATION_MS = 2_000;

/**
 * A data-plane's stop (docs/operations.md, "Stopping a data-plane"): it serves on after readiness
 * turns false for longer than a balancer that probes needs to see it and the endpoints to propagate,
 * and the pod's grace period covers the pause, the stream drain, the replay and 5 s of last frames.
 */
function shutdownProblems(objects: K8sObject[]): string[] {
  const { w, c } = serviceContainer(objects, "data-plane");
  if (!w || !c) return [];
  const ms = (name: string, def: number) => Number(envValue(c, name) ?? def);
  const pause = ms("DATA_PLANE_SHUTDOWN_PAUSE_MS", 0);
  const drain = ms("DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS", 10_000);
  const replay = ms("DATA_PLANE_SHUTDOWN_REPLAY_MS", 10_000);
  const probe = c.readinessProbe as { periodSeconds?: number; failureThreshold?: number } | undefined;
  const seen = (probe?.periodSeconds ?? 10) * (probe?.failureThreshold ?? 3) * 1000 + PROPAGATION_MS;
  const problems: string[] = [];
  if (pause < seen)
    problems.push(`${id(w)}: DATA_PLANE_SHUTDOWN_PAUSE_MS (${pause}) is shorter than a balancer takes to drop the pod (${seen} ms: readiness failures at its period and threshold, and propagation)`);
  const grace = ((w.spec.template.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30) * 1000;
  if (pause + drain + replay + 5_000 > grace)
    problems.push(`${id(w)}: terminationGracePeriodSeconds (${grace / 1000}) does not cover the pause, the stream drain, the replay and 5 s (${(pause + drain + replay + 5_000) / 1000} s)`);
  return problems;
}

const SIZE_UNITS: Record<string, number> = { "": 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
/** A size as nats.conf or Kubernetes writes it (`20Gi`, `20GiB`, `5G`), in bytes. */
const bytesOf = (v: string | undefined) => {
  const m = /^(\d+)(Ki|Mi|Gi|Ti|K|M|G|T|)B?$/.exec(v?.trim() ?? "");
  return m ? Number(m[1]) * SIZE_UNITS[m[2]!]! : undefined;
};

/**
 * The streams' sizing (docs/performance.md, "Sizing"): the ledger's windows fit the store it is told
 * each node has (its own start-up check, run here on the manifest's values), that store is the
 * nats.conf max_file_store, each node's volume holds it, what the ledger reserves for other streams
 * covers the data-plane's RESPONSES bucket, and the ledger reads every node's store.
 */
function natsSizingProblems(objects: K8sObject[], nats: Workload, conf: string): string[] {
  const problems: string[] = [];
  const maxFileStore = bytesOf(/max_file_store:\s*([0-9A-Za-z]+)/.exec(conf)?.[1]);
  if (!maxFileStore) return ["nats.conf: jetstream needs a max_file_store (the store the streams are sized against)"];
  const claim = (nats.spec as { volumeClaimTemplates?: Array<{ spec?: { resources?: { requests?: { storage?: string } } } }> }).volumeClaimTemplates?.[0];
  const volume = bytesOf(claim?.spec?.resources?.requests?.storage);
  if (!volume || volume < maxFileStore * 1.05)
    problems.push(`StatefulSet/nats: each node's volume (${claim?.spec?.resources?.requests?.storage}) must exceed max_file_store by 5% at least (the file system's own room)`);
  const { w: ledger, c } = serviceContainer(objects, "ledger");
  if (!ledger || !c) return [...problems, "Deployment/ledger is required"];
  // Values from Secrets stand in as placeholders: what is checked here is written in the manifest.
  const env: Record<string, string> = {};
  // (A key read as PEM is left out: a placeholder is no key, and the sizing does not depend on it.)
  for (const e of c.env ?? []) if (e.name.startsWith("LEDGER_") && !(e.valueFrom && e.name === "LEDGER_GRANT_PUBLIC_KEY")) env[e.name] = e.value ?? `manifest-check-${e.name}-0123456789`;
  try {
    loadLedgerConfig(env);
  } catch (err) {
    problems.push(`${id(ledger)}: ${(err as Error).message.replace(/\n\s*/g, "; ")}`);
  }
  if (bytesOf(env.LEDGER_NATS_STORE_BYTES) !== maxFileStore) problems.push(`${id(ledger)}: LEDGER_NATS_STORE_BYTES (${env.LEDGER_NATS_STORE_BYTES}) must be nats.conf's max_file_store`);
  const nodes = nats.spec.replicas ?? 1;
  const want = Array.from({ length: nodes }, (_, i) => `http://nats-${i}.${nats.spec.serviceName}:8222`).join(",");
  if (env.LEDGER_NATS_MONITOR_URLS !== want) problems.push(`${id(ledger)}: LEDGER_NATS_MONITOR_URLS must name every NATS node's monitoring endpoint (${want})`);
  const dp = serviceContainer(objects, "data-plane").c;
  const bucket = Number((dp && envValue(dp, "DATA_PLANE_RESPONSES_BUCKET_MAX_BYTES")) ?? 1024 ** 3);
  if ((bytesOf(env.LEDGER_NATS_RESERVED_BYTES) ?? 2 * 1024 ** 3) < bucket)
    problems.push(`${id(ledger)}: LEDGER_NATS_RESERVED_BYTES must cover the RESPONSES bucket (DATA_PLANE_RESPONSES_BUCKET_MAX_BYTES, ${bucket} bytes)`);
  return problems;
}

/**
 * NATS's users (docs/operations.md, "NATS credentials and permissions"): auth.conf is exactly what
 * scripts/lib/nats-auth.ts generates and nats.conf includes it, the server reads every user's password
 * from that user's Secret, and each service connects as its own user with its own Secret.
 */
function natsAuthProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const data = find(objects, "ConfigMap", "nats-config")?.data as Record<string, string> | undefined;
  const nats = find<Workload>(objects, "StatefulSet", "nats");
  if (!data || !nats) return problems; // natsProblems says so
  if (data["auth.conf"] !== authorizationBlock()) problems.push("ConfigMap/nats-config: auth.conf differs from what scripts/lib/nats-auth.ts generates (`node scripts/nats-auth.ts conf`)");
  if (!/^include\s+"?\.\/auth\.conf"?\s*$/m.test(data["nats.conf"] ?? "")) problems.push("nats.conf: does not include ./auth.conf, so NATS would take anyone's usage events");
  const fromSecret = (c: Container, name: string, secret: string) => {
    const ref = c.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
    return ref?.name === secret && ref.key === "password";
  };
  const server = nats.spec.template.spec.containers[0]!;
  for (const user of NATS_USERS) {
    if (!fromSecret(server, NATS_PASSWORD_ENV[user], natsSecretName(user))) problems.push(`StatefulSet/nats: ${NATS_PASSWORD_ENV[user]} must come from Secret ${natsSecretName(user)}, key password`);
  }
  for (const user of ["control-plane", "ledger", "data-plane"] as const) {
    const w = workloads(objects).find((x) => x.metadata.name === user);
    if (!w) continue;
    const c = w.spec.template.spec.containers[0]!;
    const prefix = NATS_ENV_PREFIX[user];
    if (envValue(c, `${prefix}NATS_USER`) !== user) problems.push(`${id(w)}: ${prefix}NATS_USER must be ${user} (its own NATS user)`);
    if (!fromSecret(c, `${prefix}NATS_PASSWORD`, natsSecretName(user))) problems.push(`${id(w)}: ${prefix}NATS_PASSWORD must come from Secret ${natsSecretName(user)}, key password`);
  }
  return problems;
}

/**
 * A database role per service (deploy/postgres/roles.sql): each service's *_DATABASE_URL comes from
 * a Secret of its own, so no two services (nor a service and another's migrate Job) share a login.
 */
function databaseRoleProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const owners = new Map<string, string>();
  for (const { owner, spec } of podTemplates(objects)) {
    for (const c of spec.containers) {
      for (const e of c.env ?? []) {
        const service = /^([A-Z_]+)_DATABASE_URL$/.exec(e.name)?.[1];
        if (!service) continue;
        const secret = e.valueFrom?.secretKeyRef?.name;
        if (!secret) {
          problems.push(`${id(owner)}: ${e.name} must come from a Secret (it holds the role's password)`);
          continue;
        }
        const other = owners.get(secret);
        if (other !== undefined && other !== service) problems.push(`${id(owner)}: ${e.name} shares Secret ${secret} with ${other}_DATABASE_URL: each service has a database role of its own`);
        owners.set(secret, service);
      }
    }
  }
  return problems;
}

interface Certificate extends K8sObject {
  spec: { secretName: string; dnsNames?: string[]; usages?: string[] };
}

/** The TLS each service must run with where the target issues certificates (overlays/production), one variable standing for each side. */
const TLS_REQUIRED: Record<string, string[]> = {
  "control-plane": ["CONTROL_PLANE_TLS_CLIENT_CA_FILE", "CONTROL_PLANE_NATS_TLS_CERT_FILE"],
  ledger: ["LEDGER_TLS_CLIENT_CA_FILE", "LEDGER_NATS_TLS_CERT_FILE"],
  "data-plane": ["DATA_PLANE_GRPC_TLS_CERT_FILE", "DATA_PLANE_NATS_TLS_CERT_FILE"],
  console: ["CONSOLE_GRPC_TLS_CERT_FILE"],
};

/**
 * The TLS a target wires (overlays/production, with cert-manager): mutual TLS on every gRPC path
 * and TLS with client certificates on NATS (clients and routes), every TLS file a service is told
 * to read in a mounted Secret that a Certificate writes, each server's certificate naming the
 * Service its clients dial, and the Ingress's certificate naming its hosts.
 */
function tlsProblems(objects: K8sObject[]): string[] {
  const certs = objects.filter((o): o is Certificate => o.kind === "Certificate");
  if (certs.length === 0) return [];
  const problems: string[] = [];
  const bySecret = new Map(certs.map((c) => [c.spec.secretName, c]));
  for (const { owner, spec } of podTemplates(objects)) {
    for (const c of spec.containers) {
      const mounts = ((c as { volumeMounts?: Array<{ name: string; mountPath: string }> }).volumeMounts ?? []).map((m) => ({
        path: m.mountPath,
        secret: (spec.volumes?.find((v) => v.name === m.name)?.secret as { secretName?: string } | undefined)?.secretName,
      }));
      for (const e of c.env ?? []) {
        if (!/_TLS_[A-Z_]*FILE$/.test(e.name)) continue;
        const mount = mounts.find((m) => e.value?.startsWith(`${m.path}/`));
        if (!mount?.secret || !bySecret.has(mount.secret)) problems.push(`${id(owner)}: ${e.name}=${e.value} is in no mounted Secret a Certificate writes`);
      }
      const mounted = mounts.map((m) => m.secret && bySecret.get(m.secret)).filter((x): x is Certificate => x !== undefined);
      // The server certificates: the Service name its clients dial.
      const names = { "control-plane": ["control-plane"], ledger: ["ledger"], nats: ["nats", "*.nats-cluster"] }[owner.metadata.name];
      if (names && owner.kind !== "Job") {
        for (const n of names) if (!mounted.some((cert) => cert.spec.dnsNames?.includes(n))) problems.push(`${id(owner)}: its certificate does not name ${n}, the address its clients use`);
      }
    }
  }
  for (const [service, vars] of Object.entries(TLS_REQUIRED)) {
    const { w, c } = serviceContainer(objects, service);
    if (!w || !c) continue;
    for (const v of vars) if (!envValue(c, v)) problems.push(`${id(w)}: ${v} is unset: the target issues certificates, and ${service} would run in plaintext`);
  }
  const conf = (find(objects, "ConfigMap", "nats-config")?.data as Record<string, string> | undefined)?.["nats.conf"] ?? "";
  const [clients, cluster = ""] = conf.split(/^\s*cluster\s*\{/m);
  for (const [part, text] of [
    ["clients", clients ?? ""],
    ["routes", cluster],
  ] as const) {
    if (!/\btls\s*\{[^}]*\bverify:\s*true/.test(text)) problems.push(`nats.conf: no tls block with verify: true for its ${part}`);
  }
  for (const ing of objects.filter((o) => o.kind === "Ingress")) {
    const spec = ing.spec as {
      tls?: Array<{ hosts?: string[]; secretName?: string }>;
      rules?: Array<{ host?: string; http?: { paths: Array<{ backend: { service?: { name: string; port: { name?: string; number?: number } } } }> } }>;
    };
    for (const t of spec.tls ?? []) {
      const cert = bySecret.get(t.secretName ?? "");
      if (!cert) problems.push(`${id(ing)}: TLS Secret ${t.secretName} is written by no Certificate`);
      for (const h of t.hosts ?? []) if (cert && !cert.spec.dnsNames?.includes(h)) problems.push(`${id(ing)}: ${id(cert)} does not name ${h}`);
    }
    for (const r of spec.rules ?? []) {
      if (!spec.tls?.some((t) => t.hosts?.includes(r.host ?? ""))) problems.push(`${id(ing)}: ${r.host} is served without TLS`);
      for (const path of r.http?.paths ?? []) {
        const b = path.backend.service;
        const svc = b && find<ServiceObject>(objects, "Service", b.name);
        if (!b || !svc?.spec.ports.some((p) => p.name === b.port.name || p.port === b.port.number))
          problems.push(`${id(ing)}: ${r.host} goes to ${b?.name}:${b?.port.name ?? b?.port.number}, which no Service has`);
      }
    }
  }
  return problems;
}

/** Each ServiceMonitor scrapes something: a Service it selects, by a port that Service has. */
function monitoringProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const services = objects.filter((o): o is ServiceObject => o.kind === "Service");
  for (const m of objects.filter((o) => o.kind === "ServiceMonitor")) {
    const spec = m.spec as { selector: { matchLabels?: Record<string, string> }; endpoints: Array<{ port?: string }> };
    const selected = services.filter((svc) => matches(spec.selector.matchLabels, svc.metadata.labels));
    if (selected.length === 0) problems.push(`${id(m)}: selects no Service`);
    for (const e of spec.endpoints) for (const svc of selected) if (!svc.spec.ports.some((p) => p.name === e.port)) problems.push(`${id(m)}: ${id(svc)} has no port ${e.port}`);
  }
  return problems;
}

/** Everything one target renders to, and its problems (render errors included). */
export async function checkTarget(dir: string): Promise<{ objects: K8sObject[]; problems: string[] }> {
  let objects: K8sObject[];
  try {
    objects = parseManifests(render(dir));
  } catch (err) {
    return { objects: [], problems: [(err as Error).message] };
  }
  // The deployment's rules read fields the schemas guarantee, so they run on valid objects only.
  const schema = await validateSchemas(objects);
  return { objects, problems: schema.length > 0 ? schema : deploymentProblems(objects) };
}

/** One of JOB_TARGETS rendered and checked: the schemas, the "restricted" profile, pinned images, a role per service. */
export async function checkJobs(dir: string): Promise<{ objects: K8sObject[]; problems: string[] }> {
  let objects: K8sObject[];
  try {
    objects = parseManifests(render(dir));
  } catch (err) {
    return { objects: [], problems: [(err as Error).message] };
  }
  const schema = await validateSchemas(objects);
  return { objects, problems: schema.length > 0 ? schema : [...podSecurityProblems(objects), ...imageProblems(objects), ...databaseRoleProblems(objects)] };
}
