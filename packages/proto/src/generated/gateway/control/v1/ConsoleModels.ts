// Original file: ../../proto/gateway/control/v1/control.proto

import type { ConsoleModel as _gateway_control_v1_ConsoleModel, ConsoleModel__Output as _gateway_control_v1_ConsoleModel__Output } from '../../../gateway/control/v1/ConsoleModel.js';
import type { ConsoleToolPrice as _gateway_control_v1_ConsoleToolPrice, ConsoleToolPrice__Output as _gateway_control_v1_ConsoleToolPrice__Output } from '../../../gateway/control/v1/ConsoleToolPrice.js';

export interface ConsoleModels {
  'models'?: (_gateway_control_v1_ConsoleModel)[];
  'tools'?: (_gateway_control_v1_ConsoleToolPrice)[];
}

export interface ConsoleModels__Output {
  'models': (_gateway_control_v1_ConsoleModel__Output)[];
  'tools': (_gateway_control_v1_ConsoleToolPrice__Output)[];
}
