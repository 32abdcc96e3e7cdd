// Original file: ../../proto/gateway/control/v1/control.proto

import type { Org as _gateway_control_v1_Org, Org__Output as _gateway_control_v1_Org__Output } from '../../../gateway/control/v1/Org.js';
import type { ApiKey as _gateway_control_v1_ApiKey, ApiKey__Output as _gateway_control_v1_ApiKey__Output } from '../../../gateway/control/v1/ApiKey.js';
import type { ConsoleMember as _gateway_control_v1_ConsoleMember, ConsoleMember__Output as _gateway_control_v1_ConsoleMember__Output } from '../../../gateway/control/v1/ConsoleMember.js';

export interface ConsoleOperatorOrgView {
  'org'?: (_gateway_control_v1_Org | null);
  'keys'?: (_gateway_control_v1_ApiKey)[];
  'members'?: (_gateway_control_v1_ConsoleMember)[];
}

export interface ConsoleOperatorOrgView__Output {
  'org': (_gateway_control_v1_Org__Output | null);
  'keys': (_gateway_control_v1_ApiKey__Output)[];
  'members': (_gateway_control_v1_ConsoleMember__Output)[];
}
