// Original file: ../../proto/gateway/control/v1/control.proto

import type { Project as _gateway_control_v1_Project, Project__Output as _gateway_control_v1_Project__Output } from '../../../gateway/control/v1/Project.js';

export interface ListProjectsResponse {
  'projects'?: (_gateway_control_v1_Project)[];
}

export interface ListProjectsResponse__Output {
  'projects': (_gateway_control_v1_Project__Output)[];
}
