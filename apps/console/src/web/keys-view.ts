/** A key as the keys page and an operator's organization page list it. */
import { count, day } from "./dom.js";

export interface Key {
  id: string;
  name: string;
  prefix: string;
  routes: string[];
  models: string[];
  rpm_limit: number;
  tpm_limit: number;
  revoked: boolean;
  created_at_ms: number;
  /** Its own cap and window (limit 0: none). */
  budget?: { limit_minor: number; window: string } | null;
  project_id?: string;
  tags?: string[];
}

/** A key's own limits per minute, as words. */
export const limitsOf = (k: Key) => [k.rpm_limit ? `${count(k.rpm_limit)} requests` : "", k.tpm_limit ? `${count(k.tpm_limit)} tokens` : ""].filter(Boolean).join(", ") || "none";
/** What a key is called on a page: its name, or its prefix when it has none. */
export const keyName = (k: Key) => k.name || `${k.prefix}… (unnamed)`;
/** The cells every key list has: routes, models, limits. */
export const scopeCells = (k: Key) => [k.routes.length ? k.routes.join(", ") : "all", k.models.length ? k.models.join(", ") : "all", limitsOf(k)];
export const createdCell = (k: Key) => day(k.created_at_ms);
