// Original file: ../../proto/gateway/control/v1/control.proto

import type { CreateProjectRequest as _gateway_control_v1_CreateProjectRequest, CreateProjectRequest__Output as _gateway_control_v1_CreateProjectRequest__Output } from '../../../gateway/control/v1/CreateProjectRequest.js';

export interface ConsoleCreateProjectRequest {
  'token'?: (string);
  'project'?: (_gateway_control_v1_CreateProjectRequest | null);
}

export interface ConsoleCreateProjectRequest__Output {
  'token': (string);
  'project': (_gateway_control_v1_CreateProjectRequest__Output | null);
}
