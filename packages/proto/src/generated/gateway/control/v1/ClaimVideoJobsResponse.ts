// Original file: ../../proto/gateway/control/v1/control.proto

import type { VideoJob as _gateway_control_v1_VideoJob, VideoJob__Output as _gateway_control_v1_VideoJob__Output } from '../../../gateway/control/v1/VideoJob.js';

export interface ClaimVideoJobsResponse {
  'jobs'?: (_gateway_control_v1_VideoJob)[];
}

export interface ClaimVideoJobsResponse__Output {
  'jobs': (_gateway_control_v1_VideoJob__Output)[];
}
