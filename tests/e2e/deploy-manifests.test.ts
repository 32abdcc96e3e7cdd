import { generateKeyPairSync } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig as loadControlConfig } from "@gateway/control-plane";
import { loadConfig as loadDataPlaneConfig } from "@gateway/data-plane";
import { loadConfig as loadLedgerConfig } from "@gateway/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { DOCKERFILE, imageEnv, imageNodeFlags, parseStages } from "../../scripts/lib/image.ts";
import { authorizationBlock } from "../../scripts/lib/nats-auth.ts";
import {
  checkTarget,
  deploymentProblems,
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
  for (const t of TARGETS) rendered.set(t, parseManifests(render(t)));
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
    // A copy of the base beside the overlay: Kustomize takes no absolute path to a base.
    const tmp = mkdtempSync(join(tmpdir(), "gw-overlay-"));
    const dir = join(tmp, "overlay");
    cpSync(resolve(root, "deploy/k8s"), join(tmp, "k8s"), { recursive: true });
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
      /Deployment\/ledger: invalid ledger configuration:; the streams' replay windows do not fit .* shorten LEDGER_USAGE_REPLAY_WINDOW to 26h at most/,
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
        return { health: c.port, grpc: undefined, running: Number(new URL(stack.baseUrl()).port) };
      },
    };
    for (const [name, listen] of Object.entries(listening)) {
      const w = workloads(o).find((x) => x.metadata.name === name)!;
      const container = w.spec.template.spec.containers[0]!;
      const ports = listen(podEnv(w));
      for (const probe of [container.readinessProbe!, container.livenessProbe!]) {
        expect(resolvePort(container, probe.httpGet!.port), `${target} ${name} probe port`).toBe(ports.health);
        // The path answers 200 on the running service (ready by now).
        const res = await fetch(`http://127.0.0.1:${ports.running}${probe.httpGet!.path}`, { signal: AbortSignal.timeout(5_000) });
        expect(res.status, `${name} ${probe.httpGet!.path}`).toBe(200);
      }
      expect(Number(w.spec.template.metadata!.annotations!["prometheus.io/port"]), `${name} metrics port`).toBe(ports.health);
      const service = find<K8sObject & { spec: { ports: Array<{ targetPort: string | number }> } }>(o, "Service", name)!;
      if (ports.grpc !== undefined) expect(resolvePort(container, service.spec.ports[0]!.targetPort), `${name} gRPC`).toBe(ports.grpc);
      else expect(resolvePort(container, service.spec.ports[0]!.targetPort), `${name} HTTP`).toBe(ports.health);
    }
  });
});
