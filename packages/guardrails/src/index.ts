export { parseRulesDocument, GuardrailConfigError, PLUGINS, PII_TYPES, GUARDRAIL_ROUTES, type GuardrailRule, type Outcome, type Stage, type Plugin, type PiiType } from "./rules.js";
export { compileRules, CompiledGuardrails, headerValue, mergeOutcomes, type RuleOutcome, type RunOptions, type StageResult, type StreamChecker, type TextSegment } from "./engine.js";
export { findPii, maskPii, detectorsFor } from "./pii.js";
