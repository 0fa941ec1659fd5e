import { describe, expect, it } from 'vitest';
import { AppError, asAppError, toUserMessage } from '../../src/errors.js';

describe('errors', () => {
  it('keeps AppErrors and wraps anything else as INTERNAL without leaking its text', () => {
    const known = new AppError('USAGE', 'Which cluster?', { remedy: 'Name one.' });
    expect(asAppError(known)).toBe(known);
    const wrapped = asAppError(new TypeError('cannot read x of undefined at foo.ts:12'));
    expect(wrapped.code).toBe('INTERNAL');
    expect(toUserMessage(new TypeError('secret internals'))).not.toContain('secret internals');
    expect(toUserMessage(known)).toBe('Which cluster? Name one. (USAGE)');
  });
});
