// What never reaches a log line, wherever a caller puts it in the record: passwords and the
// answers the definition marks sensitive, at the top of the record or one level down.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SENSITIVE_ANSWER_KEYS } from '@admissions/form';
import { createLogger } from '../src/platform/logging/logger';

function logOnce(record: Record<string, unknown>): Record<string, unknown> {
  let written = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  createLogger('info', sink).info(record, 'test record');
  return JSON.parse(written) as Record<string, unknown>;
}

describe('log redaction', () => {
  it('replaces passwords and sensitive answers at the top of a record', () => {
    const sensitive = SENSITIVE_ANSWER_KEYS[0]!;
    const line = logOnce({
      password: 'Correct-Horse-9',
      confirm_password: 'Correct-Horse-9',
      [sensitive]: '123-45-6789',
      code: 'UNREADABLE',
    });
    expect(line).toMatchObject({
      password: '[REDACTED]',
      confirm_password: '[REDACTED]',
      [sensitive]: '[REDACTED]',
      // A rejection's code is what an operator looks for: kept.
      code: 'UNREADABLE',
    });
    expect(JSON.stringify(line)).not.toContain('Correct-Horse-9');
    expect(JSON.stringify(line)).not.toContain('123-45-6789');
  });

  it('replaces them one level down, the confirmation code included', () => {
    const line = logOnce({ body: { password: 'Correct-Horse-9', code: '123456' } });
    expect(line.body).toEqual({ password: '[REDACTED]', code: '[REDACTED]' });
  });
});
