// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { BudgetWindow as _gateway_ledger_v1_BudgetWindow, BudgetWindow__Output as _gateway_ledger_v1_BudgetWindow__Output } from '../../../gateway/ledger/v1/BudgetWindow.js';

export interface ListBudgetsResponse {
  'windows'?: (_gateway_ledger_v1_BudgetWindow)[];
}

export interface ListBudgetsResponse__Output {
  'windows': (_gateway_ledger_v1_BudgetWindow__Output)[];
}
