// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { DeploymentHealth as _gateway_ledger_v1_DeploymentHealth, DeploymentHealth__Output as _gateway_ledger_v1_DeploymentHealth__Output } from '../../../gateway/ledger/v1/DeploymentHealth.js';

export interface ProviderHealthResponse {
  'deployments'?: (_gateway_ledger_v1_DeploymentHealth)[];
}

export interface ProviderHealthResponse__Output {
  'deployments': (_gateway_ledger_v1_DeploymentHealth__Output)[];
}
