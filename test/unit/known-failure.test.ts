import { describe, expect, it } from 'vitest';
import { CmsError, knownFailure } from '../../src/core/errors.js';

/** The one translation every door (REST, MCP, the CLI, the site import) applies to what a service threw. */
describe('knownFailure', () => {
  const withCode = (code: string, message = 'driver error') => Object.assign(new Error(message), { code });

  it('keeps a CmsError, turns constraint races into CONFLICT and the database state into its codes', () => {
    const own = new CmsError('NOT_FOUND', 'gone');
    expect(knownFailure(own)).toBe(own);
    expect(knownFailure(withCode('23505'))?.code).toBe('CONFLICT');
    expect(knownFailure(withCode('SQLITE_CONSTRAINT_UNIQUE'))?.code).toBe('CONFLICT');
    expect(knownFailure(withCode('ECONNREFUSED'))?.code).toBe('DATABASE_UNAVAILABLE');
    expect(knownFailure(withCode('57P01'))?.code).toBe('DATABASE_UNAVAILABLE');
    expect(knownFailure(new Error('Connection terminated unexpectedly'))?.code).toBe('DATABASE_UNAVAILABLE');
    expect(knownFailure(withCode('SQLITE_FULL'))?.code).toBe('DATABASE_FULL');
    expect(knownFailure(withCode('53100'))?.status).toBe(507);
  });

  it('leaves everything else internal', () => {
    expect(knownFailure(new Error('boom'))).toBeNull();
    expect(knownFailure(withCode('42P01'))).toBeNull();
    expect(knownFailure('a string')).toBeNull();
  });
});
