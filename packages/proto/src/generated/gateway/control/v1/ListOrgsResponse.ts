// Original file: ../../proto/gateway/control/v1/control.proto

import type { Org as _gateway_control_v1_Org, Org__Output as _gateway_control_v1_Org__Output } from '../../../gateway/control/v1/Org.js';

export interface ListOrgsResponse {
  'orgs'?: (_gateway_control_v1_Org)[];
}

export interface ListOrgsResponse__Output {
  'orgs': (_gateway_control_v1_Org__Output)[];
}
