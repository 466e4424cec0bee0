import { expect } from 'vitest';
import { ApiError } from '../../src/core/errors.js';

/** What `p` rejects with; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** The ApiError `p` rejects with; fails the test when it resolves or rejects with anything else. */
export async function apiRejection(p: Promise<unknown>): Promise<ApiError> {
  const e = await rejection(p);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}
