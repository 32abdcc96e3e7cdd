/** Every provider kind's adapters and translators are in one table: providers/table.ts (PROVIDERS). */
export * from "./types.js";
