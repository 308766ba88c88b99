import { describe, expect, it } from 'vitest';
import { decideGrant, parseScope } from '../../../src/services/oauth/grants.js';
import { isOwnResource } from '../../../src/services/oauth/metadata.js';
import { challengeProblem, verifierMatches } from '../../../src/services/oauth/pkce.js';
import { matchRedirectUri, redirectUriProblem } from '../../../src/services/oauth/redirect-uris.js';
import { displayUserCode, newUserCode, normalizeUserCode } from '../../../src/services/oauth/user-codes.js';

describe('OAuth rules', () => {
  it('accepts https, loopback http and private-use redirect URIs only', () => {
    for (const ok of [
      'https://a.example/cb',
      'http://localhost/cb',
      'http://127.0.0.1:9/cb',
      'http://[::1]:9/cb',
      'com.example.app:/cb',
    ]) {
      expect(redirectUriProblem(ok), ok).toBeNull();
    }
    for (const bad of [
      'http://a.example/cb',
      'https://a.example/cb#x',
      'javascript:alert(1)',
      'data:text/html,x',
      'file:///etc',
      '',
      'cb',
    ]) {
      expect(redirectUriProblem(bad), bad).not.toBeNull();
    }
  });

  it('matches redirect URIs exactly, loopback ports aside', () => {
    const reg = ['http://127.0.0.1:8000/cb?a=1', 'https://a.example/cb'];
    expect(matchRedirectUri(reg, 'https://a.example/cb')).toBe('https://a.example/cb');
    expect(matchRedirectUri(reg, 'https://a.example/cb/')).toBeNull();
    expect(matchRedirectUri(reg, 'https://a.example:443/cb')).toBeNull();
    expect(matchRedirectUri(reg, 'http://127.0.0.1:9999/cb?a=1')).toBe('http://127.0.0.1:9999/cb?a=1');
    expect(matchRedirectUri(reg, 'http://127.0.0.1:9999/cb?a=2')).toBeNull();
    expect(matchRedirectUri(reg, 'http://localhost:8000/cb?a=1')).toBeNull();
  });

  it('takes S256 PKCE only and checks the verifier', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'; // RFC 7636 appendix B
    expect(challengeProblem(challenge, 'S256')).toBeNull();
    expect(challengeProblem(challenge, 'plain')).toMatch(/S256/);
    expect(challengeProblem(challenge, undefined)).toMatch(/S256/);
    expect(challengeProblem(undefined, 'S256')).toMatch(/required/);
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier}x`, challenge)).toBe(false);
    expect(verifierMatches('short', challenge)).toBe(false);
  });

  it('makes readable user codes and reads them back forgivingly', () => {
    const code = newUserCode();
    expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
    const shown = displayUserCode(code);
    expect(normalizeUserCode(shown.toLowerCase())).toBe(code);
    expect(normalizeUserCode(` ${shown.slice(0, 4)} ${shown.slice(5)} `)).toBe(code);
    expect(normalizeUserCode('AAAA-AAAA')).toBeNull();
    expect(normalizeUserCode('BCDF')).toBeNull();
  });

  it('intersects grants with the role and refuses empty ones', () => {
    expect(parseScope(' a  b a ')).toEqual(['a', 'b']);
    expect(decideGrant(['content:read', 'schema:write'], 10)).toEqual(['content:read']);
    expect(decideGrant(['content:read', 'schema:read'], 40, ['schema:read'])).toEqual(['schema:read']);
    expect(() => decideGrant(['schema:write'], 40)).toThrow(/none of the scopes/);
    expect(() => decideGrant(['content:read'], 40, [])).toThrow(/at least one/);
    expect(() => decideGrant(['content:read'], 40, ['media:read'])).toThrow(/did not ask/);
  });

  it('recognises this site as a resource, nothing else', () => {
    const site = 'https://cms.example.test';
    expect(isOwnResource(site, 'https://cms.example.test/_cms/api/mcp')).toBe(true);
    expect(isOwnResource(site, 'https://cms.example.test/_cms/api')).toBe(true);
    expect(isOwnResource(site, 'https://cms.example.test')).toBe(true);
    expect(isOwnResource(site, 'https://cms.example.test/other')).toBe(false);
    expect(isOwnResource(site, 'https://evil.example/_cms/api/mcp')).toBe(false);
    expect(isOwnResource(site, 'not a url')).toBe(false);
  });
});
