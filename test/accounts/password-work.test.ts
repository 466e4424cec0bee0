import { afterEach, describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, argonHash, argonVerifier, passwordWork } from '../../src/accounts/password-work.js';
import { runAsQueueCaller } from '../../src/core/fair-queue.js';
import type { Release } from '../../src/core/fair-slots.js';
import { apiRejection } from '../support/rejection.js';

// Argon2 runs on libuv's thread pool, which the stores' file writes share: at most half of it hashes at once.

const fromAddress = <T>(address: string, fn: () => Promise<T>): Promise<T> =>
  runAsQueueCaller({ account: `address:${address}`, weight: 1 }, fn);

afterEach(() => passwordWork.configure({ maxQueue: 32 }));

describe('password work', () => {
  it('takes at most half of the thread pool, and every hash and check still comes out right', async () => {
    const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
    expect(passwordWork.size).toBe(Math.max(1, Math.floor(pool / 2)));
    let most = 0;
    const sample = setInterval(() => (most = Math.max(most, passwordWork.running)), 1);
    const hashes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fromAddress(`192.0.2.${i}`, () => argonHash(`correct horse ${i}`, ARGON2_OPTIONS)),
      ),
    );
    clearInterval(sample);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(passwordWork.size);
    expect(passwordWork.running).toBe(0);
    for (const [i, hash] of hashes.entries()) expect(await argonVerifier(hash, `correct horse ${i}`)).toBe(true);
    expect(await argonVerifier(hashes[0]!, 'wrong horse')).toBe(false);
  });

  it("refuses a check past its address's waiting bound with SERVICE_BUSY, not as a wrong password", async () => {
    const hash = await argonHash('battery staple', ARGON2_OPTIONS);
    passwordWork.configure({ maxQueue: 0 });
    const held: Release[] = [];
    for (let i = 0; i < passwordWork.size; i++) held.push(await passwordWork.acquire());
    const err = await apiRejection(fromAddress('198.51.100.7', () => argonVerifier(hash, 'battery staple')));
    expect(err.code).toBe('SERVICE_BUSY');
    expect(err.message).toMatch(/password checks/);
    for (const release of held) release();
    expect(await fromAddress('198.51.100.7', () => argonVerifier(hash, 'battery staple'))).toBe(true);
  });
});
