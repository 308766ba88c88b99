import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';

describe('waitFor', () => {
  it('resolves with the first truthy value of a sync or async check', async () => {
    let n = 0;
    expect(await waitFor(() => (++n >= 3 ? `at ${n}` : null), { what: 'three checks', intervalMs: 1 })).toBe('at 3');
    let m = 0;
    expect(await waitFor(async () => ++m >= 2, { what: 'two checks', intervalMs: 1 })).toBe(true);
  });

  it('counts a throwing check as not yet', async () => {
    let n = 0;
    const value = await waitFor(
      () => {
        if (++n < 3) throw new Error('not ready');
        return n;
      },
      { what: 'no error', intervalMs: 1 },
    );
    expect(value).toBe(3);
  });

  it('fails naming what it waited for and the last value or error', async () => {
    await expect(waitFor(() => 0, { what: 'the zero', timeoutMs: 30 })).rejects.toThrow(
      /waiting for the zero: last 0$/,
    );
    await expect(
      waitFor(
        () => {
          throw new Error('refused');
        },
        { what: 'the server', timeoutMs: 30 },
      ),
    ).rejects.toThrow(/waiting for the server: the last check threw Error: refused$/);
  });
});
