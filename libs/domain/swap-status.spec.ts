import {
  isAllowedTransition,
  judgeTransition,
  SWAP_STATUSES,
  TERMINAL_STATUSES,
  toSwapStatus,
} from './index.js';

describe(judgeTransition.name, () => {
  const sut = judgeTransition;

  it('maps the provider status new to waiting', () => {
    expect(toSwapStatus('new')).toBe('waiting');
    expect(sut('waiting', toSwapStatus('new'))).toEqual({ kind: 'unchanged' });
  });

  it.each([
    ['waiting', 'confirming'],
    ['waiting', 'finished'],
    ['waiting', 'expired'],
    ['waiting', 'overdue'],
    ['waiting', 'hold'],
    ['confirming', 'sending'],
    ['exchanging', 'refunded'],
    ['sending', 'finished'],
    ['hold', 'confirming'],
    ['hold', 'failed'],
  ] as const)('accepts the forward move %s → %s', (from, to) => {
    expect(sut(from, to)).toEqual({ kind: 'advance', to });
  });

  it.each([
    ['confirming', 'waiting'],
    ['sending', 'exchanging'],
    ['exchanging', 'overdue'],
    ['confirming', 'expired'],
    ['hold', 'waiting'],
    ['finished', 'sending'],
    ['expired', 'confirming'],
    ['refunded', 'finished'],
  ] as const)('rejects %s → %s', (from, to) => {
    expect(sut(from, to)).toEqual({ kind: 'violation', to });
  });

  it('never lets a terminal status change', () => {
    for (const from of TERMINAL_STATUSES) {
      for (const to of SWAP_STATUSES) {
        expect(isAllowedTransition(from, to)).toBe(false);
      }
    }
  });

  it('never moves back to waiting', () => {
    for (const from of SWAP_STATUSES) {
      expect(isAllowedTransition(from, 'waiting')).toBe(false);
    }
  });
});
