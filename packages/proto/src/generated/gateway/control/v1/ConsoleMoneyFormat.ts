// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleMoneyFormat {
  'decimals'?: (number);
  'unit'?: (string);
}

export interface ConsoleMoneyFormat__Output {
  'decimals': (number);
  'unit': (string);
}
