// Original file: ../../proto/gateway/control/v1/control.proto


export interface McpToolDefinition {
  'name'?: (string);
  'definition_json'?: (string);
}

export interface McpToolDefinition__Output {
  'name': (string);
  'definition_json': (string);
}
