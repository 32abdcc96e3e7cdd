// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface OrgMargin {
  'org_id'?: (string);
  'requests'?: (number | string | Long);
  'billed_minor'?: (number | string | Long);
  'provider_cost_minor'?: (number | string | Long);
  'absorbed_minor'?: (number | string | Long);
  'margin_minor'?: (number | string | Long);
}

export interface OrgMargin__Output {
  'org_id': (string);
  'requests': (number);
  'billed_minor': (number);
  'provider_cost_minor': (number);
  'absorbed_minor': (number);
  'margin_minor': (number);
}
