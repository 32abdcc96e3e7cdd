import type { Logger } from "@gateway/observability";
import type { CatalogSnapshot, McpServer, Model, TrialPolicy } from "@gateway/proto";
import { isProviderKind, type CatalogProvider } from "../providers/types.js";

export interface CatalogView {
  version: number;
  models: ReadonlyMap<string, Model>;
  /** Providers of a kind this gateway has an adapter for (others are unusable and left out). */
  providers: ReadonlyMap<string, CatalogProvider>;
  /** Published model ids, sorted: the base of every visibility computation. */
  publishedIds: readonly string[];
  /** MCP servers by name (docs/mcp.md). */
  mcpServers: ReadonlyMap<string, McpServer>;
}

export interface CatalogSource {
  fetchCatalog(knownVersion: number): Promise<CatalogSnapshot>;
  fetchTrialPolicy(): Promise<TrialPolicy>;
}

const EMPTY: CatalogView = { version: 0, models: new Map(), providers: new Map(), publishedIds: [], mcpServers: new Map() };

/**
 * The catalog snapshot and trial policy, held in memory and replaced whole. Refreshed on change
 * events and by a periodic poll (a cheap not_modified answer when nothing changed). Requests read
 * the current view synchronously: no per-request I/O.
 */
export class CatalogCache {
  private view: CatalogView = EMPTY;
  private trial: TrialPolicy | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private loadedOnce = false;

  constructor(
    private readonly source: CatalogSource,
    private readonly log: Logger,
    private readonly refreshMs: number,
  ) {}

  get current(): CatalogView {
    return this.view;
  }

  get trialPolicy(): TrialPolicy | undefined {
    return this.trial;
  }

  get ready(): boolean {
    return this.loadedOnce;
  }

  async start(): Promise<void> {
    await this.refresh().catch((err: unknown) => this.log.warn({ err }, "initial catalog load failed; retrying in background"));
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Fetches catalog and trial policy; concurrent callers share one refresh. */
  refresh(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => {
        this.refreshing = undefined;
      });
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    const [snapshot, trial] = await Promise.all([this.source.fetchCatalog(this.view.version), this.source.fetchTrialPolicy()]);
    this.trial = trial;
    if (!snapshot.not_modified) {
      this.view = buildView(snapshot);
      this.log.info({ catalog_version: snapshot.version, models: snapshot.models.length }, "catalog loaded");
    }
    this.loadedOnce = true;
  }
}

export function buildView(snapshot: CatalogSnapshot): CatalogView {
  const models = new Map(snapshot.models.map((m) => [m.id, { ...m, deployments: [...m.deployments].sort((a, b) => a.priority - b.priority) }]));
  // The kind is narrowed here, once: everything downstream switches over the closed union.
  const providers = new Map<string, CatalogProvider>();
  for (const p of snapshot.providers) if (isProviderKind(p.kind)) providers.set(p.code, { ...p, kind: p.kind });
  const publishedIds = snapshot.models
    .filter((m) => m.status === "published")
    .map((m) => m.id)
    .sort();
  const mcpServers = new Map((snapshot.mcp_servers ?? []).map((s) => [s.name, s]));
  return { version: snapshot.version, models, providers, publishedIds, mcpServers };
}
