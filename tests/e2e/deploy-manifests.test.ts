import { generateKeyPairSync } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig as loadControlConfig } from "@gateway/control-plane";
import { loadConfig as loadDataPlaneConfig } from "@gateway/data-plane";
import { loadConfig as loadLedgerConfig } from "@gateway/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { DOCKERFILE, imageEnv, imageNodeFlags, parseStages } from "../../scripts/lib/image.ts";
import { authorizationBlock } from "../../scripts/lib/nats-auth.ts";
import {
  checkJobs,
  checkTarget,
  deploymentProblems,
  JOB_TARGETS,
  podSecurityProblems,
  podTemplates,
  envValue,
  find,
  type K8sObject,
  parseManifests,
  render,
  resolvePort,
  root,
  TARGETS,
  validateSchemas,
  type Workload,
  workloads,
} from "../../scripts/lib/k8s-manifests.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * deploy/: the Kustomize base and both overlays render (kubectl kustomize) to manifests that pass the
 * Kubernetes schemas strictly and this deployment's rules, and the probes point at ports and paths
 * the services really serve with the environment the manifests give them.
 */
const rendered = new Map<string, K8sObject[]>();
beforeAll(() => {
  for (const t of [...TARGETS, ...JOB_TARGETS]) rendered.set(t, parseManifests(render(t)));
});
const objectsOf = (t: string) => structuredClone(rendered.get(t)!);
const ledgerOf = (o: K8sObject[]) => find<Workload>(o, "Deployment", "ledger")!;

describe("deploy/ manifests", () => {
  it.each(TARGETS)("%s renders to manifests that validate", async (target) => {
    const { objects, problems } = await checkTarget(target);
    expect(problems).toEqual([]);
    expect(
      workloads(objects)
        .map((w) => w.metadata.name)
        .sort(),
    ).toEqual(["console", "control-plane", "data-plane", "ledger", "nats"]);
    expect(objects.filter((o) => o.kind === "PodDisruptionBudget")).toHaveLength(5);
  });

  it("puts every manifest of deploy/k8s in the base", () => {
    const listed = (parseAllDocuments(readFileSync(resolve(root, "deploy/k8s/kustomization.yaml"), "utf8"))[0]!.toJS() as { resources: string[] }).resources;
    const files = readdirSync(resolve(root, "deploy/k8s")).filter((f) => /\.ya?ml$/.test(f) && f !== "kustomization.yaml");
    expect(files.filter((f) => !listed.includes(f))).toEqual([]);
  });

  it("rejects a wrong type, an unknown field, a missing required field and a malformed quantity", async () => {
    const cases: Array<[string, (o: K8sObject[]) => void, RegExp]> = [
      ["replicas as a string", (o) => void (ledgerOf(o).spec.replicas = "two" as unknown as number), /spec\/replicas must be integer/],
      ["a misspelt probe field", (o) => void Object.assign(ledgerOf(o).spec.template.spec.containers[0]!, { livenessProbes: {} }), /'"livenessProbes"' does not exist in type 'IContainer'/],
      ["a field the spec does not have", (o) => void Object.assign(ledgerOf(o).spec, { replica: 2 }), /'"replica"' does not exist in type 'IDeploymentSpec'/],
      ["no selector", (o) => void delete (ledgerOf(o).spec as Partial<Workload["spec"]>).selector, /must have required property selector/],
      ["a container without a name", (o) => void delete (ledgerOf(o).spec.template.spec.containers[0] as { name?: string }).name, /must have required property name/],
      ["a CPU request in words", (o) => void (ledgerOf(o).spec.template.spec.containers[0]!.resources!.requests!.cpu = "250 millicores"), /requests\/cpu must match format "quantity"/],
      ["a kind the API does not have", (o) => void (find(o, "Service", "ledger")!.apiVersion = "v2"), /v2 Service is not a kind of the Kubernetes API/],
    ];
    for (const [what, breakIt, expected] of cases) {
      const objects = objectsOf("deploy/k8s");
      breakIt(objects);
      const problems = await validateSchemas(objects);
      expect(problems.join("\n"), what).toMatch(expected);
    }
  });

  it("fails an overlay whose patch breaks the schema, through kubectl kustomize", async () => {
    // A copy of the base (and the release it names) beside the overlay: Kustomize takes no absolute path to a base.
    const tmp = mkdtempSync(join(tmpdir(), "gw-overlay-"));
    const dir = join(tmp, "overlay");
    cpSync(resolve(root, "deploy/k8s"), join(tmp, "k8s"), { recursive: true });
    cpSync(resolve(root, "deploy/release"), join(tmp, "release"), { recursive: true });
    mkdirSync(dir);
    try {
      writeFileSync(join(dir, "kustomization.yaml"), "resources: [../k8s]\npatches:\n  - path: broken.yaml\n");
      writeFileSync(
        join(dir, "broken.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ledger }\nspec:\n  template:\n    spec:\n      containers:\n        - name: ledger\n          readinessProbe: { httpGet: { path: /readyz, port: ops }, periodSecond: 2 }\n",
      );
      const { problems } = await checkTarget(dir);
      expect(problems.join("\n")).toMatch(/Deployment\/ledger: .*'"periodSecond"' does not exist in type 'IProbe'/);
      writeFileSync(join(dir, "broken.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ledgr }\nspec: { replicas: 1 }\n");
      expect((await checkTarget(dir)).problems.join("\n")).toMatch(/kubectl kustomize .*ledgr/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("refuses a deployment without probes, a budget that blocks drains, or streams wider than the NATS cluster", () => {
    const noProbe = objectsOf("deploy/k8s");
    delete ledgerOf(noProbe).spec.template.spec.containers[0]!.readinessProbe;
    expect(deploymentProblems(noProbe)).toContain("Deployment/ledger ledger: no readinessProbe");

    const blocking = objectsOf("deploy/overlays/small");
    Object.assign(find(blocking, "PodDisruptionBudget", "ledger")!, { spec: { minAvailable: 1, selector: { matchLabels: { app: "ledger" } } } });
    expect(deploymentProblems(blocking)).toContain("Deployment/ledger: PodDisruptionBudget/ledger allows no disruption at 1 replicas, so every node drain would block");

    const wrongPort = objectsOf("deploy/k8s");
    ledgerOf(wrongPort).spec.template.spec.containers[0]!.livenessProbe = { httpGet: { path: "/healthz", port: "metrics" } };
    expect(deploymentProblems(wrongPort)).toContain("Deployment/ledger ledger: livenessProbe port metrics is not a container port");

    const r3OnOneNode = objectsOf("deploy/overlays/small");
    envOf(ledgerOf(r3OnOneNode), "LEDGER_STREAM_REPLICAS").value = "3";
    expect(deploymentProblems(r3OnOneNode)).toContain("Deployment/ledger: LEDGER_STREAM_REPLICAS=3 but NATS runs 1 node(s); JetStream refuses such a stream");

    const twoRoutes = objectsOf("deploy/k8s");
    const conf = find(twoRoutes, "ConfigMap", "nats-config")!.data as Record<string, string>;
    conf["nats.conf"] = conf["nats.conf"]!.replace(/\s*nats:\/\/nats-2\.nats-cluster:6222/, "");
    expect(deploymentProblems(twoRoutes).join("\n")).toMatch(/routes nats-0.nats-cluster, nats-1.nats-cluster do not name the 3 nodes/);
  });

  it("sizes the streams for each target's stated traffic, and refuses a window its store cannot hold, a store its volume cannot, or an unwatched node", () => {
    const week = objectsOf("deploy/overlays/production");
    envOf(ledgerOf(week), "LEDGER_USAGE_REPLAY_WINDOW").value = "7d";
    expect(deploymentProblems(week).join("\n")).toMatch(
      /Deployment\/ledger: invalid ledger configuration:; the streams' replay windows do not fit .* shorten LEDGER_USAGE_REPLAY_WINDOW to 25h at most/,
    );

    const smallVolume = objectsOf("deploy/overlays/small");
    const nats = find<Workload>(smallVolume, "StatefulSet", "nats")! as unknown as { spec: { volumeClaimTemplates: Array<{ spec: { resources: { requests: { storage: string } } } }> } };
    nats.spec.volumeClaimTemplates[0]!.spec.resources.requests.storage = "12Gi";
    expect(deploymentProblems(smallVolume)).toContain("StatefulSet/nats: each node's volume (12Gi) must exceed max_file_store by 5% at least (the file system's own room)");

    const drifted = objectsOf("deploy/k8s");
    const conf = find(drifted, "ConfigMap", "nats-config")!.data as Record<string, string>;
    conf["nats.conf"] = conf["nats.conf"]!.replace("max_file_store: 150Gi", "max_file_store: 100Gi");
    expect(deploymentProblems(drifted)).toContain("Deployment/ledger: LEDGER_NATS_STORE_BYTES (150Gi) must be nats.conf's max_file_store");

    const unwatched = objectsOf("deploy/k8s");
    envOf(ledgerOf(unwatched), "LEDGER_NATS_MONITOR_URLS").value = "http://nats-0.nats-cluster:8222";
    expect(deploymentProblems(unwatched).join("\n")).toContain("LEDGER_NATS_MONITOR_URLS must name every NATS node's monitoring endpoint");
  });

  it("stops a data-plane after the balancers have dropped it, within its grace period", () => {
    const early = objectsOf("deploy/overlays/production");
    const dp = find<Workload>(early, "StatefulSet", "data-plane")!;
    envOf(dp, "DATA_PLANE_SHUTDOWN_PAUSE_MS").value = "5000";
    expect(deploymentProblems(early)).toContain(
      "StatefulSet/data-plane: DATA_PLANE_SHUTDOWN_PAUSE_MS (5000) is shorter than a balancer takes to drop the pod (8000 ms: readiness failures at its period and threshold, and propagation)",
    );
    envOf(dp, "DATA_PLANE_SHUTDOWN_PAUSE_MS").value = "10000";
    envOf(dp, "DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS").value = "50000";
    expect(deploymentProblems(early)).toContain("StatefulSet/data-plane: terminationGracePeriodSeconds (60) does not cover the pause, the stream drain, the replay and 5 s (75 s)");
  });

  it("gives the data-planes and the ledgers their shared secrets from Secrets only", () => {
    const literal = objectsOf("deploy/k8s");
    const dp = find<Workload>(literal, "StatefulSet", "data-plane")!;
    const env = dp.spec.template.spec.containers[0]!.env!;
    env[env.findIndex((e) => e.name === "DATA_PLANE_USAGE_SIGNING_KEY")] = { name: "DATA_PLANE_USAGE_SIGNING_KEY", value: "in-the-manifest-for-anyone-to-read-0123" };
    ledgerOf(literal).spec.template.spec.containers[0]!.env = ledgerOf(literal).spec.template.spec.containers[0]!.env!.filter((e) => e.name !== "LEDGER_USAGE_SIGNING_KEYS");
    expect(deploymentProblems(literal)).toEqual(
      expect.arrayContaining([
        "StatefulSet/data-plane: DATA_PLANE_USAGE_SIGNING_KEY must come from a Secret (every replica the same)",
        "Deployment/ledger: LEDGER_USAGE_SIGNING_KEYS must come from a Secret (every replica the same)",
      ]),
    );
  });

  it("runs NATS with the generated users and permissions, each service as its own user, and refuses a manifest that strays", () => {
    for (const target of TARGETS) {
      const conf = find(objectsOf(target), "ConfigMap", "nats-config")!.data as Record<string, string>;
      expect(conf["auth.conf"], target).toBe(authorizationBlock());
      expect(conf["nats.conf"], target).toMatch(/^include \.\/auth\.conf$/m);
    }
    const widened = objectsOf("deploy/k8s");
    const conf = find(widened, "ConfigMap", "nats-config")!.data as Record<string, string>;
    conf["auth.conf"] = conf["auth.conf"]!.replace('"_INBOX.gatewayctl.>"', '"_INBOX.gatewayctl.>"\n        "usage.v1.>"');
    expect(deploymentProblems(widened)).toContain("ConfigMap/nats-config: auth.conf differs from what scripts/lib/nats-auth.ts generates (`node scripts/nats-auth.ts conf`)");

    const open = objectsOf("deploy/overlays/small");
    const small = find(open, "ConfigMap", "nats-config")!.data as Record<string, string>;
    small["nats.conf"] = small["nats.conf"]!.replace(/^include .*$/m, "");
    expect(deploymentProblems(open)).toContain("nats.conf: does not include ./auth.conf, so NATS would take anyone's usage events");

    const borrowed = objectsOf("deploy/overlays/production");
    const password = envOf(ledgerOf(borrowed), "LEDGER_NATS_PASSWORD") as { valueFrom?: { secretKeyRef: { name: string; key: string } } };
    password.valueFrom!.secretKeyRef.name = "gateway-nats-data-plane";
    expect(deploymentProblems(borrowed)).toContain("Deployment/ledger: LEDGER_NATS_PASSWORD must come from Secret gateway-nats-ledger, key password");
  });

  it("runs NATS as a three-node JetStream cluster with R3 streams, and as one fsync-always node in the small overlay", () => {
    for (const target of ["deploy/k8s", "deploy/overlays/production"]) {
      const o = objectsOf(target);
      expect(find<Workload>(o, "StatefulSet", "nats")!.spec.replicas, target).toBe(3);
      expect(envValue(ledgerOf(o).spec.template.spec.containers[0]!, "LEDGER_STREAM_REPLICAS"), target).toBe("3");
      expect((find(o, "ConfigMap", "nats-config")!.data as Record<string, string>)["nats.conf"]).toMatch(/jetstream \{ store_dir: \/data/);
    }
    const small = objectsOf("deploy/overlays/small");
    expect(find<Workload>(small, "StatefulSet", "nats")!.spec.replicas).toBe(1);
    expect(envValue(ledgerOf(small).spec.template.spec.containers[0]!, "LEDGER_STREAM_REPLICAS")).toBe("1");
    expect(envValue(find<Workload>(small, "StatefulSet", "data-plane")!.spec.template.spec.containers[0]!, "DATA_PLANE_RESPONSES_REPLICAS")).toBe("1");
  });

  it("runs the data-plane with the node flags of its image (deploy/Dockerfile) in every target, and refuses a NODE_OPTIONS that drops them", () => {
    // The image is the stage SERVICE names, each built on the runtime stage (NODE_ENV) with its own settings.
    const stages = parseStages(readFileSync(DOCKERFILE, "utf8"));
    expect([...stages.values()].at(-1)!.base).toBe("$" + "{SERVICE}");
    for (const service of ["control-plane", "ledger", "data-plane", "console"]) expect(stages.get(service)?.base, service).toBe("runtime");
    // The flag the memory figures rest on (docs/operations.md, "Memory at saturation").
    const flags = imageNodeFlags("data-plane");
    expect(flags).toContainEqual(expect.stringMatching(/^--max-semi-space-size=\d+$/));
    // Node starts only with flags it allows in NODE_OPTIONS (deploy-layout.test.ts starts the data-plane so).
    for (const f of flags) expect(process.allowedNodeEnvironmentFlags.has(f.split("=")[0]!), f).toBe(true);
    expect(imageEnv("data-plane")).toEqual({ NODE_ENV: "production", NODE_OPTIONS: flags.join(" ") });
    expect(imageEnv("ledger")).toEqual({ NODE_ENV: "production" });
    // No target sets its own NODE_OPTIONS, so the pods run the image's flags as they are.
    for (const target of TARGETS) {
      for (const w of workloads(objectsOf(target))) for (const c of w.spec.template.spec.containers) expect(envValue(c, "NODE_OPTIONS"), `${target} ${w.metadata.name}`).toBeUndefined();
    }

    const dataPlaneOf = (o: K8sObject[]) => find<Workload>(o, "StatefulSet", "data-plane")!.spec.template.spec.containers[0]!;
    const withOptions = (value: string) => {
      const o = objectsOf("deploy/overlays/production");
      dataPlaneOf(o).env!.push({ name: "NODE_OPTIONS", value });
      return deploymentProblems(o);
    };
    expect(withOptions("--enable-source-maps")).toContain(`StatefulSet/data-plane data-plane: its NODE_OPTIONS replaces the image's and drops ${flags.join(" ")} (deploy/Dockerfile)`);
    expect(withOptions(`${flags.join(" ")} --enable-source-maps`)).toEqual([]);
    const renamed = objectsOf("deploy/k8s");
    Object.assign(dataPlaneOf(renamed), { image: "gateway/router:1.2.3" });
    expect(deploymentProblems(renamed)).toContain("StatefulSet/data-plane data-plane: deploy/Dockerfile has no stage router to build gateway/router:1.2.3 from");
  });

  it("spreads every production workload over hosts and zones, NATS one node per host", () => {
    const o = objectsOf("deploy/overlays/production");
    for (const w of workloads(o)) {
      const spec = w.spec.template.spec as {
        topologySpreadConstraints?: Array<{ topologyKey: string }>;
        affinity?: { podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: Array<{ topologyKey: string }> } };
      };
      expect(
        spec.topologySpreadConstraints?.map((c) => c.topologyKey),
        w.metadata.name,
      ).toContain("topology.kubernetes.io/zone");
      if (w.metadata.name === "nats") expect(spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.map((a) => a.topologyKey)).toEqual(["kubernetes.io/hostname"]);
      else
        expect(
          spec.topologySpreadConstraints?.map((c) => c.topologyKey),
          w.metadata.name,
        ).toContain("kubernetes.io/hostname");
      expect(w.spec.replicas, w.metadata.name).toBeGreaterThanOrEqual(3);
    }
  });
  it.each(JOB_TARGETS)("%s (gatewayctl's and the recovery's Jobs) renders to manifests that validate", async (target) => {
    const { objects, problems } = await checkJobs(target);
    expect(problems).toEqual([]);
    expect(objects.filter((o) => o.kind === "Job").length).toBeGreaterThan(0);
  });

  it("holds every pod of every target to the restricted Pod Security standard, and refuses one that breaks it", () => {
    for (const target of [...TARGETS, ...JOB_TARGETS]) expect(podSecurityProblems(objectsOf(target)), target).toEqual([]);
    const ns = find<K8sObject>(objectsOf("deploy/overlays/production"), "Namespace", "gateway")!;
    expect(ns.metadata.labels?.["pod-security.kubernetes.io/enforce"]).toBe("restricted");
    for (const o of objectsOf("deploy/overlays/production")) if (o.kind !== "Namespace") expect((o.metadata as { namespace?: string }).namespace, `${o.kind}/${o.metadata.name}`).toBe("gateway");

    type Pod = ReturnType<typeof podTemplates>[number]["spec"];
    const broken = (breakIt: (pod: Pod) => void) => {
      const o = objectsOf("deploy/overlays/production");
      breakIt(podTemplates(o).find((t) => t.owner.metadata.name === "ledger" && t.owner.kind === "Deployment")!.spec);
      return podSecurityProblems(o);
    };
    const ledger = (p: Pod) => p.containers[0]! as Pod["containers"][number] & { securityContext: Record<string, unknown> };
    expect(broken((p) => delete p.securityContext!.runAsNonRoot)).toContain("Deployment/ledger ledger: runAsNonRoot must be true (in the pod's or the container's securityContext)");
    expect(broken((p) => (ledger(p).securityContext.allowPrivilegeEscalation = true))).toContain("Deployment/ledger ledger: securityContext.allowPrivilegeEscalation must be false");
    expect(broken((p) => (ledger(p).securityContext.capabilities = { drop: ["ALL"], add: ["NET_ADMIN"] }))).toContain("Deployment/ledger ledger: capability NET_ADMIN may not be added");
    expect(broken((p) => delete p.securityContext!.seccompProfile)).toContain("Deployment/ledger ledger: seccompProfile must be RuntimeDefault or Localhost");
    expect(broken((p) => (ledger(p).securityContext.readOnlyRootFilesystem = false))).toContain("Deployment/ledger ledger: readOnlyRootFilesystem must be true (the image writes only to its volumes)");
    expect(broken((p) => p.volumes!.push({ name: "host", hostPath: { path: "/var/run" } }))).toContain('Deployment/ledger: volume host is a hostPath volume, which "restricted" does not allow');
    expect(broken((p) => (p.hostNetwork = true))).toContain("Deployment/ledger: hostNetwork is not allowed");
    // The image runs as a numeric user, which runAsNonRoot can check (a name it cannot).
    expect(readFileSync(DOCKERFILE, "utf8")).toMatch(/^USER 1000:1000$/m);
  });

  it("pins every image to a version, the gateway's to the release and registry of deploy/release, and refuses :latest", () => {
    const release = parseAllDocuments(readFileSync(resolve(root, "deploy/release/kustomization.yaml"), "utf8"))[0]!.toJS() as { images: Array<{ name: string; newName: string; newTag: string }> };
    const version = (JSON.parse(readFileSync(resolve(root, "apps/control-plane/package.json"), "utf8")) as { version: string }).version;
    for (const i of release.images) expect(i.newTag, i.name).toBe(version);
    const want = new Set(release.images.map((i) => `${i.newName}:${i.newTag}`));
    for (const target of [...TARGETS, ...JOB_TARGETS]) {
      for (const { owner, spec } of podTemplates(objectsOf(target))) {
        for (const c of spec.containers) if (c.image?.includes("gateway/")) expect(want.has(c.image), `${target} ${owner.metadata.name}: ${c.image}`).toBe(true);
      }
    }
    const moving = objectsOf("deploy/overlays/production");
    Object.assign(ledgerOf(moving).spec.template.spec.containers[0]!, { image: "registry.example.com/gateway/ledger:latest" });
    expect(deploymentProblems(moving)).toContain("Deployment/ledger ledger: image registry.example.com/gateway/ledger:latest is not pinned to a version (deploy/release sets the gateway's)");
    Object.assign(ledgerOf(moving).spec.template.spec.containers[0]!, { image: "registry.example.com/gateway/ledger" });
    expect(deploymentProblems(moving)).toContain("Deployment/ledger ledger: image registry.example.com/gateway/ledger is not pinned to a version (deploy/release sets the gateway's)");
  });

  it("keeps the local stack's tokens and passwords out of the image's build context (.dockerignore)", () => {
    const ignored = readFileSync(resolve(root, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    for (const must of [".local", ".git", ".tools", "**/node_modules", "**/dist"]) expect(ignored, must).toContain(must);
    // Whatever git ignores (machine state) stays out too.
    const gitignored = readFileSync(resolve(root, ".gitignore"), "utf8")
      .split("\n")
      .map((l) => l.trim().replace(/\/$/, ""))
      .filter(Boolean);
    for (const g of gitignored)
      expect(
        ignored.some((i) => i === g || i === `**/${g}`),
        g,
      ).toBe(true);
  });

  it("gives each service a database role of its own, its migrate Job the direct URL of the same role", () => {
    for (const target of TARGETS) {
      const o = objectsOf(target);
      const url = (kind: string, name: string, v: string) =>
        (find<Workload>(o, kind, name)!.spec.template.spec.containers[0]!.env!.find((e) => e.name === v)!.valueFrom as { secretKeyRef: { name: string; key: string } }).secretKeyRef;
      expect(url("Deployment", "control-plane", "CONTROL_PLANE_DATABASE_URL")).toEqual({ name: "gateway-postgres-control-plane", key: "url" });
      expect(url("Deployment", "ledger", "LEDGER_DATABASE_URL")).toEqual({ name: "gateway-postgres-ledger", key: "url" });
      expect(url("Job", "migrate-control-plane", "CONTROL_PLANE_DATABASE_URL")).toEqual({ name: "gateway-postgres-control-plane", key: "migrate-url" });
      expect(url("Job", "migrate-ledger", "LEDGER_DATABASE_URL")).toEqual({ name: "gateway-postgres-ledger", key: "migrate-url" });
    }
    // Production takes search_path and statement_timeout from the roles (a transaction-mode pooler refuses startup options).
    const prod = objectsOf("deploy/overlays/production");
    expect(envValue(ledgerOf(prod).spec.template.spec.containers[0]!, "LEDGER_DB_STARTUP_OPTIONS")).toBe("false");
    const shared = objectsOf("deploy/k8s");
    const ref = ledgerOf(shared).spec.template.spec.containers[0]!.env!.find((e) => e.name === "LEDGER_DATABASE_URL")!.valueFrom!.secretKeyRef!;
    ref.name = "gateway-postgres-control-plane";
    expect(deploymentProblems(shared).join("\n")).toMatch(/LEDGER_DATABASE_URL shares Secret gateway-postgres-control-plane with CONTROL_PLANE_DATABASE_URL/);
  });

  it("wires TLS in production: the Ingress's certificate, mutual TLS on gRPC and NATS, each file from a certificate mounted, and refuses a gap", () => {
    const o = objectsOf("deploy/overlays/production");
    expect(deploymentProblems(o)).toEqual([]);
    const certificates = o.filter((x) => x.kind === "Certificate").map((x) => x.metadata.name);
    expect(certificates).toEqual(expect.arrayContaining(["gateway-public", "gateway-internal-ca", "nats-tls", "control-plane-tls", "ledger-tls", "data-plane-tls", "console-tls", "gatewayctl-tls"]));
    const ingress = find<K8sObject & { spec: { tls: Array<{ hosts: string[] }>; rules: Array<{ host: string }> } }>(o, "Ingress", "gateway")!;
    expect(ingress.spec.rules.map((r) => r.host)).toEqual(["api.gateway.example", "console.gateway.example"]);

    const cases: Array<[string, (x: K8sObject[]) => void, string]> = [
      [
        "no client CA at the ledger",
        (x) => void (ledgerOf(x).spec.template.spec.containers[0]!.env = ledgerOf(x).spec.template.spec.containers[0]!.env!.filter((e) => e.name !== "LEDGER_TLS_CLIENT_CA_FILE")),
        "Deployment/ledger: LEDGER_TLS_CLIENT_CA_FILE is unset: the target issues certificates, and ledger would run in plaintext",
      ],
      [
        "a file outside the mounted certificate",
        (x) => void (envOf(ledgerOf(x), "LEDGER_NATS_TLS_CA_FILE").value = "/etc/ssl/ca.crt"),
        "Deployment/ledger: LEDGER_NATS_TLS_CA_FILE=/etc/ssl/ca.crt is in no mounted Secret a Certificate writes",
      ],
      [
        "a ledger certificate without the ledger's name",
        (x) => void ((find(x, "Certificate", "ledger-tls")!.spec as { dnsNames: string[] }).dnsNames = ["ledger.gateway.svc"]),
        "Deployment/ledger: its certificate does not name ledger, the address its clients use",
      ],
      [
        "NATS routes without verify",
        (x) => {
          const data = find(x, "ConfigMap", "nats-config")!.data as Record<string, string>;
          data["nats.conf"] = data["nats.conf"]!.replace(/(cluster \{[\s\S]*?)verify: true/, "$1verify: false");
        },
        "nats.conf: no tls block with verify: true for its routes",
      ],
      [
        "a host without TLS",
        (x) => void (find<K8sObject & { spec: { tls: Array<{ hosts: string[] }> } }>(x, "Ingress", "gateway")!.spec.tls[0]!.hosts = ["api.gateway.example"]),
        "Ingress/gateway: console.gateway.example is served without TLS",
      ],
    ];
    for (const [what, breakIt, expected] of cases) {
      const x = objectsOf("deploy/overlays/production");
      breakIt(x);
      expect(deploymentProblems(x), what).toContain(expected);
    }
  });

  it("runs production's NATS with the base's nats.conf plus TLS for clients and routes, nothing else changed", () => {
    const conf = (t: string) => (find(objectsOf(t), "ConfigMap", "nats-config")!.data as Record<string, string>)["nats.conf"]!;
    const withoutTls = (text: string) =>
      text
        .replace(/^\s*tls \{[^}]*\}\n/gm, "")
        .split("\n")
        .filter((l) => !l.trim().startsWith("#"))
        .join("\n");
    expect(withoutTls(conf("deploy/overlays/production"))).toBe(withoutTls(conf("deploy/k8s")));
    expect(conf("deploy/overlays/production").match(/verify: true/g)).toHaveLength(2);
  });

  it("scrapes each service's metrics through a ServiceMonitor, and the data-plane's never on its public port", () => {
    const o = objectsOf("deploy/overlays/production");
    expect(
      o
        .filter((x) => x.kind === "ServiceMonitor")
        .map((x) => x.metadata.name)
        .sort(),
    ).toEqual(["control-plane", "data-plane", "ledger"]);
    const policy = find<K8sObject & { spec: { ingress: Array<{ from?: unknown[]; ports: Array<{ port: number }> }> } }>(o, "NetworkPolicy", "data-plane")!;
    // The API's port only from the ingress controller; the metrics port only from Prometheus.
    expect(policy.spec.ingress.every((r) => r.from !== undefined)).toBe(true);
    const wrong = objectsOf("deploy/overlays/production");
    (find(wrong, "ServiceMonitor", "data-plane")!.spec as { endpoints: Array<{ port: string }> }).endpoints[0]!.port = "ops";
    expect(deploymentProblems(wrong)).toContain("ServiceMonitor/data-plane: Service/data-plane-pods has no port ops");
  });

  it("walks from an empty cluster (docs/operations.md) with files of deploy/ and examples/ only, each of them rendered and checked here", () => {
    const doc = readFileSync(resolve(root, "docs/operations.md"), "utf8");
    const walk = doc.slice(doc.indexOf("## From an empty cluster"), doc.indexOf("\n## ", doc.indexOf("## From an empty cluster") + 5));
    expect(walk.length).toBeGreaterThan(1000);
    const commands = [...walk.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).join("\n");
    // Nothing from the repository but deploy/ and examples/: no scripts, no build, no gatewayctl of a checkout.
    expect(commands).not.toMatch(/\b(scripts|bin|apps|packages)\/|\bpnpm\b|\bmake\b|\bnode scripts/);
    const paths = [...commands.matchAll(/\b((?:deploy|examples)\/[A-Za-z0-9_./-]*[A-Za-z0-9_])/g)].map((m) => m[1]!);
    expect(paths).toEqual(expect.arrayContaining(["deploy/overlays/production/namespace.yaml", "deploy/postgres/roles.sql", "deploy/overlays/production", "deploy/overlays/production/tools"]));
    for (const p of paths) expect(existsSync(resolve(root, p)), p).toBe(true);
    const checked = new Set<string>([...TARGETS, ...JOB_TARGETS, "deploy/monitoring"]);
    for (const m of commands.matchAll(/kubectl apply (?:--[a-z-]+(?:=\S+)? )*-k (\S+)/g)) expect(checked.has(m[1]!), m[1]).toBe(true);
  });
});

function envOf(w: Workload, name: string): { name: string; value?: string } {
  return w.spec.template.spec.containers[0]!.env!.find((e) => e.name === name)!;
}

/** Stand-ins for the Secrets that hold keys, which must parse as such. */
const standInKeys = generateKeyPairSync("ed25519");
const KEY_STAND_INS: Record<string, string> = {
  "gateway-grants/signing-key": standInKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  "gateway-grants/public-key": standInKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
};

/** A container's environment as the pod gets it; a secret or field reference becomes a stand-in value of its own. */
function podEnv(w: Workload): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of w.spec.template.spec.containers[0]!.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    env[e.name] = e.value ?? (ref ? (KEY_STAND_INS[`${ref.name}/${ref.key}`] ?? `stand-in-${ref.name}-${ref.key}-0123456789`) : `${w.metadata.name}-0`);
  }
  return env;
}

describe("probes and ports against the services", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack("deploy-manifests");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each(TARGETS)("%s: each service's environment is accepted, and its probes, Service and metrics port are where it listens", async (target) => {
    const o = objectsOf(target);
    const listening = {
      "control-plane": (env: Record<string, string>) => {
        const c = loadControlConfig(env);
        return { health: c.opsPort, grpc: c.grpcPort as number | undefined, running: stack.control.opsPort };
      },
      ledger: (env: Record<string, string>) => {
        const c = loadLedgerConfig(env);
        return { health: c.opsPort, grpc: c.grpcPort as number | undefined, running: stack.ledger().opsPort };
      },
      "data-plane": (env: Record<string, string>) => {
        const c = loadDataPlaneConfig(env);
        return { health: c.port, grpc: undefined, metrics: c.metricsPort, running: Number(new URL(stack.baseUrl()).port) };
      },
    };
    for (const [name, listen] of Object.entries(listening)) {
      const w = workloads(o).find((x) => x.metadata.name === name)!;
      const container = w.spec.template.spec.containers[0]!;
      const ports: { health: number; grpc: number | undefined; metrics?: number | undefined; running: number } = listen(podEnv(w));
      for (const probe of [container.readinessProbe!, container.livenessProbe!]) {
        expect(resolvePort(container, probe.httpGet!.port), `${target} ${name} probe port`).toBe(ports.health);
        // The path answers 200 on the running service (ready by now).
        const res = await fetch(`http://127.0.0.1:${ports.running}${probe.httpGet!.path}`, { signal: AbortSignal.timeout(5_000) });
        expect(res.status, `${name} ${probe.httpGet!.path}`).toBe(200);
      }
      // The data-plane's metrics on a port of their own (DATA_PLANE_METRICS_PORT), the others' on the ops port.
      const metricsPort = ports.metrics ?? ports.health;
      expect(Number(w.spec.template.metadata!.annotations!["prometheus.io/port"]), `${name} metrics port`).toBe(metricsPort);
      if (target === "deploy/overlays/production") {
        const monitor = find<K8sObject & { spec: { endpoints: Array<{ port: string }> } }>(o, "ServiceMonitor", name)!;
        expect(resolvePort(container, monitor.spec.endpoints[0]!.port), `${name} ServiceMonitor`).toBe(metricsPort);
      }
      const service = find<K8sObject & { spec: { ports: Array<{ targetPort: string | number }> } }>(o, "Service", name)!;
      if (ports.grpc !== undefined) expect(resolvePort(container, service.spec.ports[0]!.targetPort), `${name} gRPC`).toBe(ports.grpc);
      else expect(resolvePort(container, service.spec.ports[0]!.targetPort), `${name} HTTP`).toBe(ports.health);
    }
  });

  it("applies the first catalog of the bootstrap Job (deploy/tools/catalog.yaml) as the Job does", async () => {
    const job = find<Workload>(objectsOf("deploy/tools"), "Job", "gateway-bootstrap")!.spec.template.spec.containers[0]! as { command?: string[] };
    expect(job.command!.join(" ")).toContain("catalog apply -f /bootstrap/catalog.yaml");
    const doc = parseYaml(readFileSync(resolve(root, "deploy/tools/catalog.yaml"), "utf8")) as unknown;
    const applied = await stack.admin.ApplyCatalog({ document_json: JSON.stringify(doc) });
    expect({ providers: applied.providers, models: applied.models }).toEqual({ providers: 1, models: 1 });
  });
});
