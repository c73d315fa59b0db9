// valueWithin (platform/deadline.ts): the value when the promise resolves in time, else the fallback, and the
// promise itself is left running.
import { describe, expect, it } from 'vitest';
import { valueWithin } from '../../platform/deadline.js';

const resolvesAfter = <T>(ms: number, v: T) => new Promise<T>((r) => setTimeout(() => r(v), ms));

describe('valueWithin', () => {
  it('gives the value of a promise that resolves within the bound', async () => {
    expect(await valueWithin(resolvesAfter(5, 'running'), 1_000, 'late')).toBe('running');
  });

  it('gives the fallback at the bound, and the promise still resolves afterwards', async () => {
    const slow = resolvesAfter(120, 'ended');
    const t = Date.now();
    expect(await valueWithin(slow, 30, 'late')).toBe('late');
    expect(Date.now() - t).toBeLessThan(110);
    expect(await slow).toBe('ended');
  });

  it('passes a rejection within the bound on', async () => {
    await expect(valueWithin(Promise.reject(new Error('refused')), 1_000, 'late')).rejects.toThrow('refused');
  });
});
