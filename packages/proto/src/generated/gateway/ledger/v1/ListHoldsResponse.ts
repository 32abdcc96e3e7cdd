// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Lease as _gateway_ledger_v1_Lease, Lease__Output as _gateway_ledger_v1_Lease__Output } from '../../../gateway/ledger/v1/Lease.js';

export interface ListHoldsResponse {
  'leases'?: (_gateway_ledger_v1_Lease)[];
}

export interface ListHoldsResponse__Output {
  'leases': (_gateway_ledger_v1_Lease__Output)[];
}
