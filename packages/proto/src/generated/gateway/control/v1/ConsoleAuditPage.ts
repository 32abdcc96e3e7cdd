// Original file: ../../proto/gateway/control/v1/control.proto

import type { ConsoleAuditEntry as _gateway_control_v1_ConsoleAuditEntry, ConsoleAuditEntry__Output as _gateway_control_v1_ConsoleAuditEntry__Output } from '../../../gateway/control/v1/ConsoleAuditEntry.js';

export interface ConsoleAuditPage {
  'entries'?: (_gateway_control_v1_ConsoleAuditEntry)[];
  'next_cursor'?: (string);
}

export interface ConsoleAuditPage__Output {
  'entries': (_gateway_control_v1_ConsoleAuditEntry__Output)[];
  'next_cursor': (string);
}
