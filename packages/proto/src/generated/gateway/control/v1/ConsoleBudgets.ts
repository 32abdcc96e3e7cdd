// Original file: ../../proto/gateway/control/v1/control.proto

import type { Org as _gateway_control_v1_Org, Org__Output as _gateway_control_v1_Org__Output } from '../../../gateway/control/v1/Org.js';
import type { Project as _gateway_control_v1_Project, Project__Output as _gateway_control_v1_Project__Output } from '../../../gateway/control/v1/Project.js';
import type { EndUserBudget as _gateway_control_v1_EndUserBudget, EndUserBudget__Output as _gateway_control_v1_EndUserBudget__Output } from '../../../gateway/control/v1/EndUserBudget.js';

export interface ConsoleBudgets {
  'org'?: (_gateway_control_v1_Org | null);
  'projects'?: (_gateway_control_v1_Project)[];
  'end_users'?: (_gateway_control_v1_EndUserBudget)[];
}

export interface ConsoleBudgets__Output {
  'org': (_gateway_control_v1_Org__Output | null);
  'projects': (_gateway_control_v1_Project__Output)[];
  'end_users': (_gateway_control_v1_EndUserBudget__Output)[];
}
