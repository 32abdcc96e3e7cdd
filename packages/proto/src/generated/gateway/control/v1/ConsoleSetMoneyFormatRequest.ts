// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleSetMoneyFormatRequest {
  'token'?: (string);
  'decimals'?: (number);
  'unit'?: (string);
}

export interface ConsoleSetMoneyFormatRequest__Output {
  'token': (string);
  'decimals': (number);
  'unit': (string);
}
