import { describe, expect, it } from 'vitest';
import { verbs } from '../../../src/commands/index.js';
import { findVerb, parseCommandText } from '../../../src/commands/parse.js';
import { AppError } from '../../../src/errors.js';

describe('parseCommandText', () => {
  it('splits on any whitespace, lower-cases the verb and defaults to help', () => {
    expect(parseCommandText('  Preflight\u00a0 cluster-a  ')).toEqual({
      verb: 'preflight',
      args: ['cluster-a'],
    });
    expect(parseCommandText('')).toEqual({ verb: 'help', args: [] });
  });
});

describe('findVerb', () => {
  it('finds registered verbs and suggests one for a typo', () => {
    expect(findVerb(verbs, 'clusters').name).toBe('clusters');
    try {
      findVerb(verbs, 'prefligth');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('UNKNOWN_VERB');
      expect((error as AppError).remedy).toMatch(
        /^Did you mean \/proxy-migrate preflight <cluster>\? Commands: /,
      );
    }
  });
});
