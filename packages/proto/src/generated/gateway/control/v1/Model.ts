// Original file: ../../proto/gateway/control/v1/control.proto

import type { Deployment as _gateway_control_v1_Deployment, Deployment__Output as _gateway_control_v1_Deployment__Output } from '../../../gateway/control/v1/Deployment.js';
import type { ImagePrice as _gateway_control_v1_ImagePrice, ImagePrice__Output as _gateway_control_v1_ImagePrice__Output } from '../../../gateway/control/v1/ImagePrice.js';
import type { VideoSpec as _gateway_control_v1_VideoSpec, VideoSpec__Output as _gateway_control_v1_VideoSpec__Output } from '../../../gateway/control/v1/VideoSpec.js';
import type { Long } from '@grpc/proto-loader';

export interface Model {
  'id'?: (string);
  'status'?: (string);
  'routes'?: (string)[];
  'context_window'?: (number | string | Long);
  'max_output_tokens'?: (number | string | Long);
  'input_price_minor_per_mtok'?: (number | string | Long);
  'output_price_minor_per_mtok'?: (number | string | Long);
  'deployments'?: (_gateway_control_v1_Deployment)[];
  'image_prices'?: (_gateway_control_v1_ImagePrice)[];
  'video'?: (_gateway_control_v1_VideoSpec | null);
  'max_input_tokens_per_image'?: (number | string | Long);
  'max_input_tokens_per_audio'?: (number | string | Long);
  'default_image_size'?: (string);
  'cached_input_price_minor_per_mtok'?: (number | string | Long);
  'cache_write_price_minor_per_mtok'?: (number | string | Long);
  'reasoning_price_minor_per_mtok'?: (number | string | Long);
  'web_search_price_minor'?: (number | string | Long);
  'long_context_threshold_tokens'?: (number | string | Long);
  'long_context_input_price_minor_per_mtok'?: (number | string | Long);
  'long_context_output_price_minor_per_mtok'?: (number | string | Long);
  'audio_input_price_minor_per_mtok'?: (number | string | Long);
  'audio_output_price_minor_per_mtok'?: (number | string | Long);
  'reasoning'?: (boolean);
  'max_output_tokens_per_second'?: (number | string | Long);
  'max_input_tokens_per_pdf_page'?: (number | string | Long);
  'max_input_tokens_per_media_second'?: (number | string | Long);
  'max_input_tokens_per_url_part'?: (number | string | Long);
  'max_input_tokens_per_web_search'?: (number | string | Long);
  'tool_prompt_tokens'?: (number | string | Long);
  'anthropic_betas'?: (string)[];
  '_cached_input_price_minor_per_mtok'?: "cached_input_price_minor_per_mtok";
  '_cache_write_price_minor_per_mtok'?: "cache_write_price_minor_per_mtok";
  '_reasoning_price_minor_per_mtok'?: "reasoning_price_minor_per_mtok";
  '_web_search_price_minor'?: "web_search_price_minor";
  '_long_context_input_price_minor_per_mtok'?: "long_context_input_price_minor_per_mtok";
  '_long_context_output_price_minor_per_mtok'?: "long_context_output_price_minor_per_mtok";
  '_audio_input_price_minor_per_mtok'?: "audio_input_price_minor_per_mtok";
  '_audio_output_price_minor_per_mtok'?: "audio_output_price_minor_per_mtok";
}

export interface Model__Output {
  'id': (string);
  'status': (string);
  'routes': (string)[];
  'context_window': (number);
  'max_output_tokens': (number);
  'input_price_minor_per_mtok': (number);
  'output_price_minor_per_mtok': (number);
  'deployments': (_gateway_control_v1_Deployment__Output)[];
  'image_prices': (_gateway_control_v1_ImagePrice__Output)[];
  'video': (_gateway_control_v1_VideoSpec__Output | null);
  'max_input_tokens_per_image': (number);
  'max_input_tokens_per_audio': (number);
  'default_image_size': (string);
  'cached_input_price_minor_per_mtok'?: (number);
  'cache_write_price_minor_per_mtok'?: (number);
  'reasoning_price_minor_per_mtok'?: (number);
  'web_search_price_minor'?: (number);
  'long_context_threshold_tokens': (number);
  'long_context_input_price_minor_per_mtok'?: (number);
  'long_context_output_price_minor_per_mtok'?: (number);
  'audio_input_price_minor_per_mtok'?: (number);
  'audio_output_price_minor_per_mtok'?: (number);
  'reasoning': (boolean);
  'max_output_tokens_per_second': (number);
  'max_input_tokens_per_pdf_page': (number);
  'max_input_tokens_per_media_second': (number);
  'max_input_tokens_per_url_part': (number);
  'max_input_tokens_per_web_search': (number);
  'tool_prompt_tokens': (number);
  'anthropic_betas': (string)[];
  '_cached_input_price_minor_per_mtok'?: "cached_input_price_minor_per_mtok";
  '_cache_write_price_minor_per_mtok'?: "cache_write_price_minor_per_mtok";
  '_reasoning_price_minor_per_mtok'?: "reasoning_price_minor_per_mtok";
  '_web_search_price_minor'?: "web_search_price_minor";
  '_long_context_input_price_minor_per_mtok'?: "long_context_input_price_minor_per_mtok";
  '_long_context_output_price_minor_per_mtok'?: "long_context_output_price_minor_per_mtok";
  '_audio_input_price_minor_per_mtok'?: "audio_input_price_minor_per_mtok";
  '_audio_output_price_minor_per_mtok'?: "audio_output_price_minor_per_mtok";
}
