// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface KeyContext {
  'key_id'?: (string);
  'org_id'?: (string);
  'org_name'?: (string);
  'revoked'?: (boolean);
  'routes'?: (string)[];
  'model_allowlist'?: (string)[];
  'org_enabled_models'?: (string)[];
  'org_in_trial'?: (boolean);
  'rpm_limit'?: (number | string | Long);
  'tpm_limit'?: (number | string | Long);
  'monthly_budget_minor'?: (number | string | Long);
  'display_prefix'?: (string);
  'guardrails_json'?: (string);
  'guardrails_version'?: (number | string | Long);
  'org_mcp_servers'?: (string)[];
  'mcp_tool_allowlist'?: (string)[];
  'org_output_limit'?: (string);
}

export interface KeyContext__Output {
  'key_id': (string);
  'org_id': (string);
  'org_name': (string);
  'revoked': (boolean);
  'routes': (string)[];
  'model_allowlist': (string)[];
  'org_enabled_models': (string)[];
  'org_in_trial': (boolean);
  'rpm_limit': (number);
  'tpm_limit': (number);
  'monthly_budget_minor': (number);
  'display_prefix': (string);
  'guardrails_json': (string);
  'guardrails_version': (number);
  'org_mcp_servers': (string)[];
  'mcp_tool_allowlist': (string)[];
  'org_output_limit': (string);
}
