// Original file: ../../proto/gateway/control/v1/control.proto


export interface AlertPercentages {
  'values'?: (number)[];
}

export interface AlertPercentages__Output {
  'values': (number)[];
}
