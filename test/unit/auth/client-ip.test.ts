import { describe, expect, it } from 'vitest';
import { clientIp } from '../../../src/services/auth/client-ip.js';

const facts = (headers: Record<string, string>, socketAddress: string | null = null) => ({
  socketAddress,
  header: (name: string) => headers[name],
});

describe('client IP for rate limits', () => {
  it('ignores proxy headers that are not trusted', () => {
    expect(clientIp(facts({ 'x-forwarded-for': '203.0.113.1' }), [])).toBeNull();
    expect(clientIp(facts({ 'x-forwarded-for': '203.0.113.1' }, '10.0.0.1'), [])).toBe('10.0.0.1');
    expect(clientIp(facts({ 'x-real-ip': '203.0.113.1' }, '10.0.0.1'), ['x-forwarded-for'])).toBe('10.0.0.1');
  });

  it('takes the right-most valid X-Forwarded-For hop (the one our proxy appended)', () => {
    const trusted = ['x-forwarded-for'];
    expect(clientIp(facts({ 'x-forwarded-for': '1.1.1.1, 203.0.113.9' }), trusted)).toBe('203.0.113.9');
    expect(clientIp(facts({ 'x-forwarded-for': '203.0.113.9, garbage' }), trusted)).toBe('203.0.113.9');
    expect(clientIp(facts({ 'x-forwarded-for': '203.0.113.9:4711' }), trusted)).toBe('203.0.113.9');
    expect(clientIp(facts({ 'x-forwarded-for': 'unknown' }, '10.0.0.2'), trusted)).toBe('10.0.0.2');
  });

  it('reads RFC 7239 Forwarded, quoted and bracketed', () => {
    const trusted = ['forwarded'];
    expect(clientIp(facts({ forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43' }), trusted)).toBe('192.0.2.60');
    expect(clientIp(facts({ forwarded: 'for=1.1.1.1, for="[2001:db8:cafe::17]:4711"' }), trusted)).toBe(
      '2001:db8:cafe:0::/64',
    );
    expect(clientIp(facts({ forwarded: 'for=_hidden' }), trusted)).toBeNull();
  });

  it('uses the first trusted header present, in configured order', () => {
    const h = { 'cf-connecting-ip': '198.51.100.4', 'x-forwarded-for': '203.0.113.9' };
    expect(clientIp(facts(h), ['cf-connecting-ip', 'x-forwarded-for'])).toBe('198.51.100.4');
    expect(clientIp(facts(h), ['x-forwarded-for', 'cf-connecting-ip'])).toBe('203.0.113.9');
  });

  it('counts IPv4-mapped addresses as IPv4 and groups IPv6 by /64', () => {
    expect(clientIp(facts({}, '::ffff:127.0.0.1'), [])).toBe('127.0.0.1');
    expect(clientIp(facts({}, '2001:db8:1:2:3:4:5:6'), [])).toBe('2001:db8:1:2::/64');
    expect(clientIp(facts({}, '2001:db8:1:2::9'), [])).toBe('2001:db8:1:2::/64');
    expect(clientIp(facts({}, '::1'), [])).toBe('0:0:0:0::/64');
    expect(clientIp(facts({}, 'fe80::1%eth0'), [])).toBe('fe80:0:0:0::/64');
  });
});
