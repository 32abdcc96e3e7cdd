// Original file: ../../proto/gateway/control/v1/control.proto

import type { Budget as _gateway_control_v1_Budget, Budget__Output as _gateway_control_v1_Budget__Output } from '../../../gateway/control/v1/Budget.js';
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
  'key_budget'?: (_gateway_control_v1_Budget | null);
  'project_id'?: (string);
  'project_budget'?: (_gateway_control_v1_Budget | null);
  'key_tags'?: (string)[];
  'org_time_zone'?: (string);
  'org_budget'?: (_gateway_control_v1_Budget | null);
  'end_user_source'?: (string);
  'end_user_budget'?: (_gateway_control_v1_Budget | null);
  'end_user_overrides'?: ({[key: string]: number | string | Long});
  'alert_thresholds_pct'?: (number)[];
  'balance_alerts_minor'?: (number | string | Long)[];
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
  'key_budget': (_gateway_control_v1_Budget__Output | null);
  'project_id': (string);
  'project_budget': (_gateway_control_v1_Budget__Output | null);
  'key_tags': (string)[];
  'org_time_zone': (string);
  'org_budget': (_gateway_control_v1_Budget__Output | null);
  'end_user_source': (string);
  'end_user_budget': (_gateway_control_v1_Budget__Output | null);
  'end_user_overrides': ({[key: string]: number});
  'alert_thresholds_pct': (number)[];
  'balance_alerts_minor': (number)[];
}
