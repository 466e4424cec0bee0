import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import type { TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { MEMOIR_ENGINES, multipartBody, startEngineServer, type MemoirEngine } from './support.js';

// The storage quota per account, over REST, on each store engine: refused past the limit with used/limit/needed,
// freed at once by a delete, held by concurrent uploads together (reserved atomically, released on failure), set per
// account by the operator, and shown in GET /svcloom/media and the wallet.

const LIMIT = 20_000;

/** A PNG of random pixels (it does not compress): about 3 * side^2 bytes. */
const noisePng = (side: number) =>
  sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

describe.each(MEMOIR_ENGINES)('storage quota, %s store', (engine: MemoirEngine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startEngineServer(engine, { listen: false, config: { storageQuotaBytes: LIMIT } });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const form = (data: Buffer, filename = 'p.png') =>
    multipartBody([{ name: 'file', filename, contentType: 'image/png', data }]);
  const send = async (session: TestSession, body: { body: Buffer; contentType: string }) => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/media/upload',
      headers: { ...sessionHeaders(session), 'content-type': body.contentType },
      payload: body.body,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const media = async (session: TestSession) =>
    (await server.app.inject({ url: '/api/v1/svcloom/media', headers: sessionHeaders(session) })).json();
  const wallet = async (session: TestSession) =>
    (await server.app.inject({ url: '/api/v1/svcloom/credits/wallet', headers: sessionHeaders(session) })).json();
  const staging = async () =>
    readdir(path.join(server.dataDir, 'memoir-media', '.staging')).catch(() => [] as string[]);

  it('refuses an upload past the quota with 413 QUOTA_EXCEEDED (used, limit, needed), storing nothing; a delete frees room at once', async () => {
    const user = await registerUser(server.app);
    const first = await noisePng(60); // ~10.8 kB
    const up = await send(user, form(first));
    expect(up.status).toBe(201);
    expect(up.body.data.size).toBe(first.length);
    expect((await media(user)).meta.storage).toEqual({
      used: first.length,
      reserved: 0,
      limit: LIMIT,
      available: LIMIT - first.length,
    });

    const second = form(await noisePng(60));
    const refused = await send(user, second);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'QUOTA_EXCEEDED' },
      meta: { requestId: expect.any(String) },
    });
    // needed: the request's length (its bound on the file), refused before a byte of the file was staged.
    expect(refused.body.error.details[0]).toMatchObject({
      used: first.length,
      limit: LIMIT,
      needed: second.body.length,
    });
    expect(await staging()).toEqual([]);
    const listed = await media(user);
    expect(listed.data.map((m: { id: string }) => m.id)).toEqual([up.body.data.id]);
    expect(listed.meta.storage.used).toBe(first.length);

    const del = await server.app.inject({
      method: 'DELETE',
      url: `/api/v1/svcloom/media/${up.body.data.id}`,
      headers: sessionHeaders(user),
    });
    expect(del.statusCode).toBe(200);
    expect((await media(user)).meta.storage).toMatchObject({ used: 0, reserved: 0, available: LIMIT });
    const again = await send(user, second);
    expect(again.status).toBe(201);
    expect((await media(user)).meta.storage.used).toBe(again.body.data.size);
  });

  it('concurrent uploads of one account cannot pass the quota together; each refusal is QUOTA_EXCEEDED and frees its reservation', async () => {
    const user = await registerUser(server.app);
    const files = await Promise.all(Array.from({ length: 6 }, () => noisePng(40))); // ~4.9 kB each, all the same size
    const each = files[0]!.length;
    expect(files.every((f) => f.length === each)).toBe(true);
    const results = await Promise.all(files.map((f) => send(user, form(f))));
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    // At most as many files as fit side by side (a reservation is cut to its file's size once read, so a later
    // request may use the framing bytes an earlier one gave back).
    expect(accepted.length).toBeLessThanOrEqual(Math.floor(LIMIT / each));
    expect(refused.length).toBeGreaterThanOrEqual(6 - Math.floor(LIMIT / each));
    for (const r of refused) {
      expect(r.status).toBe(413);
      expect(r.body.error.code).toBe('QUOTA_EXCEEDED');
      expect(r.body.error.details[0].limit).toBe(LIMIT);
      expect(r.body.error.details[0].used + r.body.error.details[0].needed).toBeGreaterThan(LIMIT);
    }
    const stored = accepted.reduce((sum, r) => sum + (r.body.data.size as number), 0);
    expect(stored).toBeLessThanOrEqual(LIMIT);
    // Every reservation was settled or released: what is used is exactly what is stored.
    expect((await media(user)).meta.storage).toEqual({
      used: stored,
      reserved: 0,
      limit: LIMIT,
      available: LIMIT - stored,
    });
    expect((await media(user)).data).toHaveLength(accepted.length);
  });

  it('a failed upload gives its reservation back: refused content, a truncated body', async () => {
    const user = await registerUser(server.app);
    const big = 18_000;
    const junk = multipartBody([
      {
        name: 'file',
        filename: 'notes.png',
        contentType: 'image/png',
        data: Buffer.from('not a picture at all. '.repeat(big / 22)),
      },
    ]);
    expect((await send(user, junk)).status).toBe(415);
    const png = await noisePng(75); // ~16.9 kB: fits only if the refused upload's room came back
    const ok = form(png);
    const truncated = { ...ok, body: ok.body.subarray(0, ok.body.length - 2000) };
    const cut = await send(user, truncated);
    expect(cut.status).toBe(400);
    expect(cut.body.error.code).toBe('VALIDATION_ERROR');
    expect((await media(user)).meta.storage).toMatchObject({ used: 0, reserved: 0 });
    expect((await send(user, ok)).status).toBe(201);
    expect(await staging()).toEqual([]);
  });

  it("the operator sets an account's own quota (and takes it back to the default); another account keeps the default", async () => {
    const user = await registerUser(server.app);
    const other = await registerUser(server.app);
    const admin = { authorization: `Bearer ${server.adminKey}` };
    const patch = (payload: Record<string, unknown>, id = user.accountId) =>
      server.app.inject({ method: 'PATCH', url: `/api/v1/accounts/${id}`, headers: admin, payload });
    const png = await noisePng(30); // ~2.8 kB

    const small = await patch({ storageQuotaBytes: 1000 });
    expect(small.statusCode).toBe(200);
    expect(small.json().data.storageQuotaBytes).toBe(1000);
    const refused = await send(user, form(png));
    expect(refused.status).toBe(413);
    expect(refused.body.error.details[0]).toMatchObject({ used: 0, limit: 1000 });
    expect((await media(user)).meta.storage.limit).toBe(1000);
    // Another account is not affected.
    expect((await send(other, form(png))).status).toBe(201);
    expect((await media(other)).meta.storage.limit).toBe(LIMIT);

    const large = await patch({ storageQuotaBytes: 5_000_000 });
    expect(large.json().data.storageQuotaBytes).toBe(5_000_000);
    const big = await Promise.all([noisePng(70), noisePng(70)]); // ~14.7 kB each: past the default together, within 5 MB
    for (const b of big) expect((await send(user, form(b))).status).toBe(201);
    expect((await media(user)).meta.storage).toMatchObject({ used: big[0]!.length + big[1]!.length, limit: 5_000_000 });

    // Back to the default: nothing stored is deleted, but nothing more fits.
    const reset = await patch({ storageQuotaBytes: null });
    expect(reset.json().data.storageQuotaBytes).toBeNull();
    const after = await media(user);
    expect(after.data).toHaveLength(2);
    expect(after.meta.storage).toMatchObject({ limit: LIMIT, available: 0 });
    expect((await send(user, form(png))).body.error.code).toBe('QUOTA_EXCEEDED');

    // Bad figures are a 400; the account keeps what it had.
    for (const bad of [-1, 1.5, '1000', 2 ** 60]) {
      const res = await patch({ storageQuotaBytes: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect(
      (await server.app.inject({ url: `/api/v1/accounts/${user.accountId}`, headers: admin })).json().data
        .storageQuotaBytes,
    ).toBeNull();
    // A session is not the operator.
    const self = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/accounts/${user.accountId}`,
      headers: sessionHeaders(user),
      payload: { storageQuotaBytes: 10 ** 9 },
    });
    expect(self.statusCode).toBeGreaterThanOrEqual(400);
    expect(self.statusCode).toBeLessThan(500);
    expect((await media(user)).meta.storage.limit).toBe(LIMIT);
  });

  it('an upload without Content-Length (chunked) reserves what is left and is cut off with QUOTA_EXCEEDED past it', async () => {
    const user = await registerUser(server.app);
    const chunked = (body: { body: Buffer; contentType: string }) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/media/upload',
        headers: { ...sessionHeaders(user), 'content-type': body.contentType, 'transfer-encoding': 'chunked' },
        // Small pieces: the file arrives as a stream whose length nobody declared.
        payload: Readable.from(
          Array.from({ length: Math.ceil(body.body.length / 1024) }, (_, i) =>
            body.body.subarray(i * 1024, (i + 1) * 1024),
          ),
        ),
      });
    const first = await noisePng(60); // ~10.8 kB: fits
    const up = await chunked(form(first));
    expect(up.statusCode).toBe(201);
    expect((await media(user)).meta.storage).toMatchObject({ used: first.length, reserved: 0 });
    const second = await noisePng(60); // does not fit in what is left
    const refused = await chunked(form(second));
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error.code).toBe('QUOTA_EXCEEDED');
    const detail = refused.json().error.details[0];
    expect(detail).toMatchObject({ used: first.length, limit: LIMIT });
    expect(detail.needed).toBeGreaterThan(LIMIT - first.length);
    // Refused while the file was arriving, at the first bytes past the room left (not up front from a declared length).
    expect(detail.needed).toBeLessThanOrEqual(second.length);
    expect(await staging()).toEqual([]);
    expect((await media(user)).meta.storage).toMatchObject({ used: first.length, reserved: 0 });
  });

  it('shows the usage in the wallet, the same as in the media list', async () => {
    const user = await registerUser(server.app);
    expect((await wallet(user)).data.storage).toEqual({ used: 0, reserved: 0, limit: LIMIT, available: LIMIT });
    const png = await noisePng(20);
    const up = await send(user, form(png));
    expect(up.status).toBe(201);
    const w = (await wallet(user)).data;
    expect(w.storage).toEqual({ used: png.length, reserved: 0, limit: LIMIT, available: LIMIT - png.length });
    expect(w.storage).toEqual((await media(user)).meta.storage);
    expect(w.balance).toBe(0);
  });
});

describe('SVC_STORAGE_QUOTA_BYTES', () => {
  it('defaults to 1 GiB, takes a whole number of bytes (0 included), and refuses anything else with a line naming it', () => {
    expect(loadConfig({}, {}).storageQuotaBytes).toBe(1024 ** 3);
    expect(loadConfig({}, { SVC_STORAGE_QUOTA_BYTES: '5000' }).storageQuotaBytes).toBe(5000);
    expect(loadConfig({}, { SVC_STORAGE_QUOTA_BYTES: '0' }).storageQuotaBytes).toBe(0);
    for (const bad of ['-1', '1.5', '1GB', '99999999999999999999']) {
      expect(() => loadConfig({}, { SVC_STORAGE_QUOTA_BYTES: bad }), bad).toThrow(
        /SVC_STORAGE_QUOTA_BYTES must be a whole number of bytes/,
      );
    }
  });
});
