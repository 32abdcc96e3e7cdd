// Original file: ../../proto/gateway/control/v1/control.proto

import type { VideoPrice as _gateway_control_v1_VideoPrice, VideoPrice__Output as _gateway_control_v1_VideoPrice__Output } from '../../../gateway/control/v1/VideoPrice.js';

export interface VideoSpec {
  'kind'?: (string);
  'durations'?: (number)[];
  'resolutions'?: (string)[];
  'aspect_ratios'?: (string)[];
  'audio'?: (boolean);
  'max_images'?: (number);
  'prices'?: (_gateway_control_v1_VideoPrice)[];
}

export interface VideoSpec__Output {
  'kind': (string);
  'durations': (number)[];
  'resolutions': (string)[];
  'aspect_ratios': (string)[];
  'audio': (boolean);
  'max_images': (number);
  'prices': (_gateway_control_v1_VideoPrice__Output)[];
}
