import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStore } from '../../src/accounts/tenancy.js';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { mediaDir } from '../../src/memoir/media.js';
import { MEMOIR_MEDIA, type MediaRecord } from '../../src/memoir/records.js';
import type { TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant, MEMOIR_ENGINES, multipartBody, requireProgram, startEngineServer } from './support.js';

// Heirs see and hear: through an open share an heir lists the owner's photos and recordings, downloads them, hears
// text in the owner's matched voice style, and chats on an allowance the owner prepaid; private items, other
// accounts, shares not open and withdrawn shares get nothing. On the embedded store and on PostgreSQL.

const DAY = 86_400_000;
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;

describe.each(MEMOIR_ENGINES)('heirs see and hear (%s)', (engine) => {
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset) };
  let server: TestServer;
  let owner: TestSession;
  let heir: TestSession;
  let stranger: TestSession;
  let shareId: string;
  let otherShareId: string;
  let photoId: string;
  let photoBytes: Buffer;
  const audioId = 'med_01JD0000000000000000000AVD';
  const privateId = 'med_01JD0000000000000000000PRV';
  const audioBytes = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(60, 7)]);

  const call = async (session: TestSession | undefined, method: string, url: string, payload?: unknown) => {
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      headers: session ? sessionHeaders(session) : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return res;
  };
  const wallet = async (s: TestSession) =>
    (await call(s, 'GET', '/api/v1/svcloom/credits/wallet')).json().data.balance as number;

  beforeAll(async () => {
    await requireProgram('text2wave', 'festival festvox-us-slt-hts');
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    server = await startEngineServer(engine, { clock, config: { sessions } });
    owner = await registerUser(server.app, { name: 'Rose Almeida' });
    heir = await registerUser(server.app);
    stranger = await registerUser(server.app);
    await grant(server, owner.accountId, 10);
    await call(owner, 'POST', '/api/v1/svcloom/setup', { agentName: 'Grandma Rose' });
    await call(owner, 'POST', '/api/v1/svcloom/journal', {
      content: 'My mother baked bread every Sunday in our kitchen in Lisbon.',
    });
    photoBytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#446688' } })
      .png()
      .toBuffer();
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'kitchen_in_lisbon.png', contentType: 'image/png', data: photoBytes },
    ]);
    const up = await server.app.inject({
      method: 'POST',
      url: '/api/svcloom/media/upload',
      headers: { ...sessionHeaders(owner), 'content-type': contentType },
      payload: body,
    });
    expect(up.statusCode).toBe(201);
    photoId = up.json().data.id;
    // A transcribed recording and a private photo, as the records they are.
    const store = accountStore(server.services.store, owner.accountId);
    const dir = mediaDir(server.services.config.dataDir, owner.accountId);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'aud.wav'), audioBytes);
    await writeFile(path.join(dir, 'prv.png'), photoBytes);
    const record = (id: string, extra: Partial<MediaRecord>): MediaRecord => ({
      id,
      ownerId: owner.accountId,
      kind: 'photo',
      mime: 'image/png',
      ext: 'png',
      size: 1,
      file: 'prv.png',
      originalName: null,
      durationMinutes: null,
      durationSeconds: null,
      createdAt: clock.now().toISOString(),
      ...extra,
    });
    await store.put(
      MEMOIR_MEDIA,
      record(audioId, {
        kind: 'audio',
        mime: 'audio/wav',
        ext: 'wav',
        size: audioBytes.length,
        file: 'aud.wav',
        durationSeconds: 3,
        inference: { plain: { transcript: 'we sang on the bus' } },
      }),
    );
    await store.put(MEMOIR_MEDIA, record(privateId, { size: photoBytes.length, private: true }));

    const linked = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      plan: {
        blockchain: 'evm',
        ownerAddress: EVM(1),
        beneficiaries: [
          { name: 'Ana', address: EVM(2), percentage: 60 },
          { name: 'Rui', address: EVM(3), percentage: 40 },
        ],
        deadMansSwitch: { enabled: true, intervalDays: 180 },
      },
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 3 },
    });
    expect(linked.statusCode).toBe(201);
    const codes = linked.json().data.codes as Array<{ shareId: string; code: string }>;
    shareId = codes[0]!.shareId;
    otherShareId = codes[1]!.shareId;
    expect((await call(heir, 'POST', '/api/v1/svcloom/shared/claim', { code: codes[0]!.code })).statusCode).toBe(200);
    const planId = linked.json().data.plan.id;
    await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('nothing before the share opens: 403 for its holder, 404 for anyone else', async () => {
    const waiting = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media`);
    expect(waiting.statusCode).toBe(403);
    expect(waiting.json().error.code).toBe('SHARE_NOT_AVAILABLE');
    expect((await call(stranger, 'GET', `/api/v1/svcloom/shared/${shareId}/media`)).statusCode).toBe(404);
  });

  it('once open, the heir lists and downloads the photos and recordings, never the private ones', async () => {
    offset = 7 * DAY + 60_000;
    await completeDueVerifications(server.services.store, clock);
    const listed = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media`);
    expect(listed.statusCode).toBe(200);
    const items = listed.json().data as Array<Record<string, unknown>>;
    expect(items.map((i) => i.id).sort()).toEqual([audioId, photoId].sort());
    expect(items.find((i) => i.id === photoId)).toMatchObject({ kind: 'photo', caption: 'Kitchen in lisbon' });
    expect(items.find((i) => i.id === audioId)).toMatchObject({ kind: 'audio', transcript: 'we sang on the bus' });

    const photo = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media/${photoId}/file`);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['cache-control']).toBe('private, no-store');
    expect(Buffer.compare(photo.rawPayload, photoBytes)).toBe(0);
    const audio = await call(heir, 'GET', `/api/svcloom/shared/${shareId}/media/${audioId}/file`);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect(Buffer.compare(audio.rawPayload, audioBytes)).toBe(0);

    // Private, unknown, and through a share not held: 404 alike, in the envelope.
    for (const [who, share, id] of [
      [heir, shareId, privateId],
      [heir, shareId, 'med_01JD0000000000000000000XXX'],
      [stranger, shareId, photoId],
      [heir, otherShareId, photoId],
    ] as const) {
      const res = await call(who, 'GET', `/api/v1/svcloom/shared/${share}/media/${id}/file`);
      expect({ status: res.statusCode, code: res.json().error.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    // The heir's book leaves the private photo out too (no caption of it; the shared one is there).
    const md = (await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/export?format=md`)).body;
    expect(md).toContain('Kitchen in lisbon');
    expect(md.match(/Photograph:/g)).toHaveLength(1);
  });

  it("the heir hears text in the owner's voice style, on the heir's own credits", async () => {
    const poor = await call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/voice/synthesize`, { text: 'Hello.' });
    expect(poor.statusCode).toBe(402);
    // No payments on this server: the refusal does not point to a purchase.
    expect(poor.json().error.message).not.toMatch(/purchase/i);
    await grant(server, heir.accountId, 20);
    const spoken = await call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/voice/synthesize`, {
      text: 'Hello, my dears.',
    });
    expect(spoken.statusCode).toBe(200);
    expect(spoken.headers['content-type']).toBe('audio/wav');
    expect(spoken.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const charged = Number(spoken.headers['x-credits-charged']);
    expect(charged).toBeGreaterThan(0);
    expect(await wallet(heir)).toBe(20 - charged);
    expect(await wallet(owner)).toBe(10);
    expect(
      (await call(stranger, 'POST', `/api/v1/svcloom/shared/${shareId}/voice/synthesize`, { text: 'Hi' })).statusCode,
    ).toBe(404);
  });

  it("the owner prepays the heir's chat: spent first, then the heir's own credits", async () => {
    // Another account's share, or more than the wallet holds: nothing moves.
    const strangers = await call(stranger, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 1 });
    expect(strangers.statusCode).toBe(404);
    const tooMuch = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 11 });
    expect(tooMuch.statusCode).toBe(402);
    const zero = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.details[0].field).toBe('credits');
    expect(await wallet(owner)).toBe(10);

    const prepaid = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 2 });
    expect(prepaid.statusCode).toBe(200);
    expect(prepaid.json().data).toEqual({ shareId, chatAllowance: 2, credits: 2 });
    expect(await wallet(owner)).toBe(8);

    const before = await wallet(heir);
    const ask = () =>
      call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/chat`, {
        message: 'Tell me about the bread your mother baked',
      });
    for (let i = 0; i < 2; i++) {
      const res = await ask();
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ grounded: true, charge: { credits: 0, units: 1 } });
    }
    expect(await wallet(heir)).toBe(before);
    // The allowance is spent: the next answer is the heir's to pay.
    const third = await ask();
    expect(third.json().data.charge.credits).toBe(1);
    expect(await wallet(heir)).toBe(before - 1);
    expect(await wallet(owner)).toBe(8);
    // Three more, which nobody spends before the share is withdrawn (below).
    expect(
      (await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 3 })).statusCode,
    ).toBe(200);
    expect(await wallet(owner)).toBe(5);
  });

  it('a withdrawn share shows nothing more, takes no allowance, and gives back what was left of it', async () => {
    expect((await call(owner, 'DELETE', `/api/v1/svcloom/heirs/shares/${shareId}`)).statusCode).toBe(200);
    // The 3 unspent credits are the owner's again; withdrawing twice gives nothing more.
    expect(await wallet(owner)).toBe(8);
    expect((await call(owner, 'DELETE', `/api/v1/svcloom/heirs/shares/${shareId}`)).statusCode).toBe(200);
    expect(await wallet(owner)).toBe(8);
    const gone = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media`);
    expect({ status: gone.statusCode, reason: gone.json().error.details[0].reason }).toEqual({
      status: 403,
      reason: 'revoked',
    });
    expect((await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media/${photoId}/file`)).statusCode).toBe(403);
    const late = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 1 });
    expect(late.statusCode).toBe(409);
    expect(await wallet(owner)).toBe(8);
    offset = 0;
  });
});
