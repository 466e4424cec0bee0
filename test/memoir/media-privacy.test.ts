import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { startOpenAiStandin, type OpenAiStandin } from '../support/openai-standin.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant, MEMOIR_ENGINES, multipartBody, startEngineServer } from './support.js';

// Photos described by a vision model (the local OpenAI stand-in, sent the photo as an image part), captions and
// private media set by the owner (update_memoir_media), and what heirs get of them: never a private item, its
// caption or its description, in their list, files, book or chat. The owner sees each share's chat allowance. On the
// embedded store and on PostgreSQL.

const DAY = 86_400_000;
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
const JETTY = 'Two girls in swimsuits stand on a wooden jetty by a lake in summer.';
const BOAT = 'A red rowing boat is pulled up on the shore of a misty lake at dawn.';

/** A JPEG of a given size carrying EXIF text that must never leave the service. */
const photo = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .withExif({ IFD0: { ImageDescription: 'exif-secret-marker', Artist: 'exif-secret-artist' } })
    .jpeg()
    .toBuffer();

describe.each(MEMOIR_ENGINES)('media described, captioned and kept private (%s)', (engine) => {
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset) };
  let standin: OpenAiStandin;
  let server: TestServer;
  let owner: TestSession;
  let heir: TestSession;
  let stranger: TestSession;
  let shareId: string;
  let otherShareId: string;
  let jettyId: string;
  let boatId: string;

  const call = async (session: TestSession, method: string, url: string, payload?: unknown) =>
    server.app.inject({
      method: method as 'GET',
      url,
      headers: sessionHeaders(session),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const upload = async (filename: string, data: Buffer) => {
    const { body, contentType } = multipartBody([{ name: 'file', filename, contentType: 'image/jpeg', data }]);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/media/upload',
      headers: { ...sessionHeaders(owner), 'content-type': contentType },
      payload: body,
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  /** The system message of the last chat completion the stand-in received that was not a photo description. */
  const lastChatContext = () =>
    standin.requests.filter((r) => r.images.length === 0).at(-1)?.messages[0]?.content ?? '';

  beforeAll(async () => {
    standin = await startOpenAiStandin();
    // Journal entries are refined by the model (JSON); chat answers quote nothing new.
    standin.answerWith((req) =>
      /JSON/.test(req.messages[0]?.content ?? '') ? '{"traits": [], "values": []}' : 'I remember it well.',
    );
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    server = await startEngineServer(engine, {
      clock,
      // The provider's failures below are the descriptions' and the chat's: nothing is embedded ahead of them
      // (test/memoir/embed-ahead.test.ts).
      config: {
        sessions,
        llm: { baseUrl: standin.baseUrl, apiKey: 'sk-standin', model: 'vision-1' },
        memoirEmbedAhead: false,
      },
    });
    owner = await registerUser(server.app, { name: 'Rose Almeida' });
    heir = await registerUser(server.app);
    stranger = await registerUser(server.app);
    await grant(server, owner.accountId, 40);
    await call(owner, 'POST', '/api/v1/svcloom/setup', { agentName: 'Grandma Rose', personName: 'Rose Almeida' });
    const entry = await call(owner, 'POST', '/api/v1/svcloom/journal', {
      content: 'My sister Jean and I swam in the lake at Annecy every summer until the light went.',
    });
    expect(entry.statusCode).toBe(201);
    jettyId = await upload('IMG_0001.jpg', await photo(1600, 1200, '#3a6ea5'));
    boatId = await upload('IMG_0002.jpg', await photo(300, 200, '#a53a3a'));

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
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 30 },
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
    await standin?.close();
  });

  it('the owner captions a photo and marks one private; bad changes are refused and change nothing', async () => {
    const captioned = await call(owner, 'PATCH', `/api/v1/svcloom/media/${jettyId}`, {
      caption: '  Jean and me   at the lake  ',
    });
    expect(captioned.statusCode).toBe(200);
    expect(captioned.json().data).toMatchObject({ id: jettyId, caption: 'Jean and me at the lake', private: false });
    const hidden = await call(owner, 'PATCH', `/api/v1/svcloom/media/${boatId}`, { private: true });
    expect(hidden.json().data).toMatchObject({ id: boatId, caption: null, private: true });

    for (const [body, status, field] of [
      [{}, 400, 'caption'],
      [{ caption: 'x'.repeat(501) }, 400, 'caption'],
      [{ caption: 'a\u0007b' }, 400, 'caption'],
      [{ private: 'yes' }, 400, 'private'],
      [{ caption: 'x', owner: 'me' }, 400, null],
    ] as const) {
      const res = await call(owner, 'PATCH', `/api/v1/svcloom/media/${jettyId}`, body);
      expect(res.statusCode).toBe(status);
      if (field) expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // Another account's item does not exist for the caller.
    const theirs = await call(stranger, 'PATCH', `/api/v1/svcloom/media/${jettyId}`, { private: true });
    expect({ status: theirs.statusCode, code: theirs.json().error.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    const unknown = await call(owner, 'PATCH', '/api/v1/svcloom/media/med_01JD0000000000000000000XXX', {
      private: false,
    });
    expect(unknown.statusCode).toBe(404);

    const listed = (await call(owner, 'GET', '/api/v1/svcloom/media')).json().data as Array<Record<string, unknown>>;
    expect(listed.find((m) => m.id === jettyId)).toMatchObject({ caption: 'Jean and me at the lake', private: false });
    expect(listed.find((m) => m.id === boatId)).toMatchObject({ caption: null, private: true });
    // An empty caption removes it; the item stays as it was otherwise.
    await call(owner, 'PATCH', `/api/v1/svcloom/media/${jettyId}`, { caption: 'tmp' });
    const cleared = await call(owner, 'PATCH', `/api/v1/svcloom/media/${jettyId}`, { caption: '' });
    expect(cleared.json().data).toMatchObject({ caption: null, private: false });
    await call(owner, 'PATCH', `/api/v1/svcloom/media/${jettyId}`, { caption: 'Jean and me at the lake' });
  });

  it('the vision model describes a photo from a small copy without its metadata, told the caption and the people', async () => {
    const before = standin.requests.length;
    standin.reply(JETTY);
    const res = await call(owner, 'GET', `/api/v1/svcloom/media/${jettyId}/inference`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.inference).toMatchObject({ kind: 'photo', width: 1600, height: 1200, description: JETTY });
    expect(data.charge.credits).toBeGreaterThan(0);
    expect(data.cached).toBe(false);

    const sent = standin.requests.slice(before);
    expect(sent).toHaveLength(1);
    const req = sent[0]!;
    expect(req.model).toBe('vision-1');
    expect(req.images).toHaveLength(1);
    const image = req.images[0]!;
    expect(image.role).toBe('user');
    expect(image.mime).toBe('image/jpeg');
    const meta = await sharp(image.bytes!).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(1024);
    expect(meta.exif).toBeUndefined();
    expect(image.bytes!.includes('exif-secret')).toBe(false);
    const prompt = req.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Jean and me at the lake');
    expect(prompt).toMatch(/Jean \(sister\)/);
    expect(prompt).toContain('Rose Almeida');
    expect(prompt).toMatch(/never guess a name/i);

    // Kept with the photo: asked again, no new request and no charge.
    const again = await call(owner, 'GET', `/api/v1/svcloom/media/${jettyId}/inference`);
    expect(again.json().data).toMatchObject({
      cached: true,
      charge: { credits: 0 },
      inference: { description: JETTY },
    });
    expect(standin.requests.length).toBe(before + 1);
  });

  it('a provider failure keeps nothing and refunds; the private photo is described for its owner', async () => {
    const wallet = async () => (await call(owner, 'GET', '/api/v1/svcloom/credits/wallet')).json().data.balance;
    const balance = await wallet();
    standin.failNext(500, 2);
    const failed = await call(owner, 'GET', `/api/v1/svcloom/media/${boatId}/inference`);
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error.message).not.toContain('127.0.0.1');
    expect(await wallet()).toBe(balance);
    standin.reply(BOAT);
    const ok = await call(owner, 'GET', `/api/v1/svcloom/media/${boatId}/inference`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.inference.description).toBe(BOAT);
  });

  it("the owner's chat finds photos by their description, and the book captions them", async () => {
    const res = await call(owner, 'POST', '/api/v1/svcloom/chat', { message: 'Do you remember the rowing boat?' });
    expect(res.statusCode).toBe(200);
    expect(lastChatContext()).toContain(BOAT);
    expect(res.json().data.citations.map((c: { id: string }) => c.id)).toContain(boatId);

    const md = (await call(owner, 'GET', '/api/v1/svcloom/export?format=md')).body;
    // The owner's own caption first; a description where there is none.
    expect(md).toContain('Photograph: Jean and me at the lake');
    expect(md).not.toContain(JETTY);
    expect(md).toContain(`Photograph: ${BOAT}`);
  });

  it('heirs never get a private item: not in their list, files, book, chat or counts', async () => {
    offset = 7 * DAY + 60_000;
    await completeDueVerifications(server.services.store, clock);
    const listed = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media`);
    expect(listed.statusCode).toBe(200);
    const items = listed.json().data as Array<Record<string, unknown>>;
    expect(items.map((i) => i.id)).toEqual([jettyId]);
    expect(items[0]).toMatchObject({ caption: 'Jean and me at the lake' });
    expect(JSON.stringify(items)).not.toContain('rowing boat');

    const file = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media/${boatId}/file`);
    expect({ status: file.statusCode, code: file.json().error.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect((await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media/${jettyId}/file`)).statusCode).toBe(200);

    const shared = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}`);
    expect(shared.json().data.media).toBe(1);

    const md = (await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/export?format=md`)).body;
    expect(md).toContain('Photograph: Jean and me at the lake');
    expect(md).not.toContain('rowing boat');
    expect(md.match(/Photograph:/g)).toHaveLength(1);

    // The heir's chat: the owner prepays it, and the private photo's description is never among the passages.
    const prepaid = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 3 });
    expect(prepaid.statusCode).toBe(200);
    const question = { message: 'What do you remember about the lake?' };
    // Asked by the owner, the same question reaches the private photo's description.
    await call(owner, 'POST', '/api/v1/svcloom/chat', question);
    expect(lastChatContext()).toContain('rowing boat');
    const sent = standin.requests.length;
    const asked = await call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/chat`, question);
    expect(asked.statusCode).toBe(200);
    const cited = asked.json().data.citations.map((c: { id: string }) => c.id);
    expect(cited).not.toContain(boatId);
    // The model was asked (the lake is in what the heir may read), from passages without the private photo.
    expect(asked.json().data, JSON.stringify(asked.json().data)).toMatchObject({ grounded: true });
    expect(standin.requests.length).toBe(sent + 1);
    expect(lastChatContext()).toContain('Annecy');
    expect(lastChatContext()).not.toContain('rowing boat');
    expect(asked.json().data.charge).toMatchObject({ units: 1, credits: 0 });

    // Made shared again, it reaches the heir.
    await call(owner, 'PATCH', `/api/v1/svcloom/media/${boatId}`, { private: false });
    const again = (await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/media`)).json().data as Array<{
      id: string;
      caption: string | null;
    }>;
    expect(again.find((i) => i.id === boatId)?.caption).toBe(BOAT);
    await call(owner, 'PATCH', `/api/v1/svcloom/media/${boatId}`, { private: true });
  });

  it("list_memoir_shares shows each share's allowance: prepaid, left and spent", async () => {
    const res = await call(owner, 'GET', '/api/v1/svcloom/heirs/shares');
    expect(res.statusCode).toBe(200);
    const shares = res.json().data as Array<{ shareId: string; chatAllowance: unknown }>;
    expect(shares.find((s) => s.shareId === shareId)?.chatAllowance).toEqual({ prepaid: 3, remaining: 2, spent: 1 });
    expect(shares.find((s) => s.shareId === otherShareId)?.chatAllowance).toEqual({
      prepaid: 0,
      remaining: 0,
      spent: 0,
    });
    // More prepaid adds to both the total and what is left.
    await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${shareId}/allowance`, { credits: 2 });
    const after = (await call(owner, 'GET', '/api/v1/svcloom/heirs/shares')).json().data as Array<{
      shareId: string;
      chatAllowance: unknown;
    }>;
    expect(after.find((s) => s.shareId === shareId)?.chatAllowance).toEqual({ prepaid: 5, remaining: 4, spent: 1 });
  });

  it("a chat under way when its share is withdrawn and then failing gives its credit to the owner's wallet", async () => {
    const balance = async () => (await call(owner, 'GET', '/api/v1/svcloom/credits/wallet')).json().data.balance;
    const before = await balance();
    const held = standin.holdNext();
    // The heir's question takes one credit of the four left, then waits on the model.
    const asking = call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/chat`, {
      message: 'What do you remember about the lake?',
    });
    await held.arrived;
    expect((await call(owner, 'DELETE', `/api/v1/svcloom/heirs/shares/${shareId}`)).statusCode).toBe(200);
    expect(await balance()).toBe(before + 3);
    // The model refuses (not retried): the credit taken goes back, to the owner, since the share can spend no more.
    held.release(400);
    const asked = await asking;
    expect(asked.statusCode).toBeGreaterThanOrEqual(400);
    expect(await balance()).toBe(before + 4);
    const shares = (await call(owner, 'GET', '/api/v1/svcloom/heirs/shares')).json().data as Array<{
      shareId: string;
      chatAllowance: unknown;
    }>;
    // What it reports spent stays what the heir's chat spent.
    expect(shares.find((s) => s.shareId === shareId)?.chatAllowance).toEqual({ prepaid: 1, remaining: 0, spent: 1 });
    offset = 0;
  });
});

describe('without a vision model', () => {
  let server: TestServer;
  let standin: OpenAiStandin;
  let owner: TestSession;

  beforeAll(async () => {
    // A stand-in is running, but the server is not told of it: nothing may reach it.
    standin = await startOpenAiStandin();
    server = await startTestServer();
    owner = await registerUser(server.app);
    await grant(server, owner.accountId, 10);
  });
  afterAll(async () => {
    await server?.close();
    await standin?.close();
  });

  it('a photo gets its metadata and no description, and the price list promises none', async () => {
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'lake.jpg', contentType: 'image/jpeg', data: await photo(64, 48, '#336699') },
    ]);
    const up = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/media/upload',
      headers: { ...sessionHeaders(owner), 'content-type': contentType },
      payload: body,
    });
    const id = up.json().data.id;
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/v1/svcloom/media/${id}/inference`,
      headers: sessionHeaders(owner),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.inference).toMatchObject({ width: 64, height: 48, description: null });
    expect(standin.requests).toHaveLength(0);
    const packs = await server.app.inject({
      method: 'GET',
      url: '/api/v1/svcloom/credits/packs',
      headers: sessionHeaders(owner),
    });
    const line = (packs.json().data.prices as Array<{ action: string; description: string }>).find(
      (p) => p.action === 'media_inference',
    );
    expect(line?.description).not.toMatch(/description|vision/i);
  });
});
