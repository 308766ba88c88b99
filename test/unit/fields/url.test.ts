import { describe, expect, it } from 'vitest';
import { checkUrl } from '../../../src/services/fields/index.js';

const unsafe: [string, string][] = [
  ['javascript:alert(1)', 'script scheme'],
  ['JavaScript:alert(1)', 'mixed-case scheme'],
  ['JAVASCRIPT:alert(1)', 'upper-case scheme'],
  [' javascript:alert(1)', 'leading space'],
  ['javascript:alert(1) ', 'trailing space'],
  ['\u00a0javascript:alert(1)', 'leading no-break space'],
  ['\ufeffjavascript:alert(1)', 'leading byte-order mark'],
  ['java\tscript:alert(1)', 'embedded tab'],
  ['java\nscript:alert(1)', 'embedded newline'],
  ['java\rscript:alert(1)', 'embedded carriage return'],
  ['\u0000javascript:alert(1)', 'leading NUL'],
  ['https://example.com/\u0007', 'BEL control character'],
  ['https://example.com/\u007f', 'DEL'],
  ['https://example.com/\u0085', 'C1 control (NEL)'],
  ['https://example.com/\u202egpj.exe', 'right-to-left override'],
  ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'data scheme'],
  ['DATA:text/html,<script>alert(1)</script>', 'data scheme upper case'],
  ['vbscript:msgbox(1)', 'vbscript scheme'],
  ['file:///etc/passwd', 'file scheme'],
  ['ftp://example.com/file', 'other scheme'],
  ['blob:https://example.com/uuid', 'blob scheme'],
  ['//evil.com', 'protocol-relative'],
  ['//evil.com/path', 'protocol-relative with path'],
  ['/\\evil.com', 'slash backslash'],
  ['\\\\evil.com', 'double backslash'],
  ['\\/evil.com', 'backslash slash'],
  ['\\evil.com', 'single leading backslash'],
  ['https://good.com\\@evil.com', 'backslash in authority'],
  ['https://user:pass@evil.com', 'embedded credentials'],
  ['https://good.com@evil.com', 'userinfo phishing'],
  ['https:evil.com', 'http scheme without slashes'],
  ['https:\\\\evil.com', 'http scheme with backslashes'],
  ['https://', 'no host'],
  ['http://exa mple.com', 'space in host'],
  ['about/', 'relative path'],
  ['example.com/page', 'scheme-less host-like path'],
  ['./page', 'dot-relative path'],
  ['?q=1', 'query only'],
  ['jav&#x09;ascript:alert(1)', 'HTML entity obfuscation'],
  ['\u200bjavascript:alert(1)', 'leading zero-width space'],
  ['mailto:', 'empty mailto'],
  ['tel:', 'empty tel'],
  ['', 'empty string'],
  ['localhost:3000', 'host:port parsed as scheme'],
];

const safe: [string, string][] = [
  ['https://example.com', 'https'],
  ['http://example.com', 'http'],
  ['HTTPS://EXAMPLE.COM/Path', 'upper-case scheme'],
  ['https://example.com/a/b?c=d#e', 'path, query and fragment'],
  ['https://example.com:8443/x', 'port'],
  ['https://[::1]/', 'IPv6 host'],
  ['https://xn--bcher-kva.example/', 'punycode host'],
  ['https://bücher.example/straße', 'unicode host and path'],
  ['https://example.com/a%20b', 'percent-encoding'],
  ['mailto:someone@example.com', 'mailto'],
  ['MAILTO:someone@example.com?subject=Hi', 'mailto with query'],
  ['tel:+1-555-0100', 'tel'],
  ['/about', 'site-relative path'],
  ['/', 'site root'],
  ['/blog/post?x=1#top', 'site-relative with query and fragment'],
  ['/path/with\\backslash', 'backslash later in a site path stays on site'],
  ['#section-2', 'fragment'],
  ['#', 'bare fragment'],
];

describe('checkUrl', () => {
  it.each(unsafe)('rejects %j (%s)', (value) => {
    const message = checkUrl(value);
    expect(message).toBeTypeOf('string');
    expect(message).not.toBe('');
  });

  it.each(safe)('accepts %j (%s)', (value) => {
    expect(checkUrl(value)).toBeNull();
  });

  it('has at least 25 unsafe and 15 safe cases', () => {
    expect(unsafe.length).toBeGreaterThanOrEqual(25);
    expect(safe.length).toBeGreaterThanOrEqual(15);
  });

  it('says why a value is rejected', () => {
    expect(checkUrl('javascript:alert(1)')).toMatch(/javascript:/);
    expect(checkUrl('//evil.com')).toMatch(/protocol-relative/);
    expect(checkUrl('java\tscript:x')).toMatch(/control/);
  });

  describe('allowSchemeless (seeds and plugin updates)', () => {
    it.each(['about/', 'example.com/page', './page', 'page?x=1'])('keeps scheme-less %j', (value) => {
      expect(checkUrl(value, { allowSchemeless: true })).toBeNull();
    });

    it.each(['javascript:alert(1)', '//evil.com', '\\\\evil.com', '/\\evil.com', 'data:,x', 'java\tscript:x'])(
      'still rejects %j',
      (value) => {
        expect(checkUrl(value, { allowSchemeless: true })).not.toBeNull();
      },
    );
  });
});
