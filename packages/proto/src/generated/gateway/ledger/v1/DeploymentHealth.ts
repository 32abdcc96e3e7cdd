// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface DeploymentHealth {
  'provider'?: (string);
  'upstream_model'?: (string);
  'attempts'?: (number | string | Long);
  'failures'?: (number | string | Long);
  'timeouts'?: (number | string | Long);
  'p50_ms'?: (number | string | Long);
  'p95_ms'?: (number | string | Long);
  'last_failure_ms'?: (number | string | Long);
  'failure_streak'?: (number);
}

export interface DeploymentHealth__Output {
  'provider': (string);
  'upstream_model': (string);
  'attempts': (number);
  'failures': (number);
  'timeouts': (number);
  'p50_ms': (number);
  'p95_ms': (number);
  'last_failure_ms': (number);
  'failure_streak': (number);
}
