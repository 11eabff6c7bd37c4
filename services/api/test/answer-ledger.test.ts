// The rule the load and fault suites judge "no acknowledged write lost" by.
import { describe, expect, it } from 'vitest';
import { AnswerLedger } from './support/answer-ledger';

describe('AnswerLedger', () => {
  it('accepts the last acknowledged value, or one sent after it whose answer never came', () => {
    const ledger = new AnswerLedger({ city: 'Springfield' });
    ledger.recordSent({ first_name: 'Ana' });
    ledger.recordAcknowledged({ first_name: 'Ana' });
    ledger.recordSent({ first_name: 'Anna' }); // refused or cut off: may still have committed
    expect(ledger.size).toBe(2);
    expect(ledger.findLost({ city: 'Springfield', first_name: 'Ana' })).toEqual([]);
    expect(ledger.findLost({ city: 'Springfield', first_name: 'Anna' })).toEqual([]);
  });

  it('reports an earlier value or a missing one as a lost write', () => {
    const ledger = new AnswerLedger({ city: 'Springfield' });
    ledger.recordSent({ first_name: 'Ana' });
    ledger.recordSent({ first_name: 'Anna' });
    ledger.recordAcknowledged({ first_name: 'Anna' });
    expect(ledger.findLost({ first_name: 'Ana' })).toEqual([
      { key: 'city', expected: 'Springfield', actual: undefined },
      { key: 'first_name', expected: 'Anna', actual: 'Ana' },
    ]);
  });
});
