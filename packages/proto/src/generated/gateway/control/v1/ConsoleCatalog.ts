// Original file: ../../proto/gateway/control/v1/control.proto

import type { ConsoleCatalogChange as _gateway_control_v1_ConsoleCatalogChange, ConsoleCatalogChange__Output as _gateway_control_v1_ConsoleCatalogChange__Output } from '../../../gateway/control/v1/ConsoleCatalogChange.js';
import type { Long } from '@grpc/proto-loader';

export interface ConsoleCatalog {
  'version'?: (number | string | Long);
  'document_json'?: (string);
  'changes'?: (_gateway_control_v1_ConsoleCatalogChange)[];
  'applied'?: (boolean);
}

export interface ConsoleCatalog__Output {
  'version': (number);
  'document_json': (string);
  'changes': (_gateway_control_v1_ConsoleCatalogChange__Output)[];
  'applied': (boolean);
}
