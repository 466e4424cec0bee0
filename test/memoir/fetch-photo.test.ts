import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { fetchPhoto } from '../../src/memoir/fetch-photo.js';
import { makeCert, type Tls } from '../webhooks/helpers.js';

// fetchPhoto against a local HTTPS server (a certificate made here, loopback allowed as an operator would allow a
// private host): a server that trickles its body is cut off by the whole fetch's deadline, not held by it.

let tls: Tls;
let server: https.Server;
let base = '';
const sockets = new Set<Duplex>();
let png: Buffer;

beforeAll(async () => {
  tls = makeCert();
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
  server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    if (req.url === '/photo.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      return;
    }
    // A byte every 100 ms, for ever: each chunk is well within any per-chunk timeout.
    res.writeHead(200, { 'content-type': 'image/png' });
    const timer = setInterval(() => res.write(Buffer.from([0])), 100);
    res.on('close', () => clearInterval(timer));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('fetching a photo', () => {
  it('fetches an image from an allowed host', async () => {
    const photo = await fetchPhoto(`${base}/photo.png`, { allow: '127.0.0.1', ca: tls.cert });
    expect(photo.equals(png)).toBe(true);
  });

  it("gives up on a server that trickles its body, at the whole fetch's deadline", async () => {
    const err = await fetchPhoto(`${base}/trickle`, { allow: '127.0.0.1', ca: tls.cert, deadlineMs: 1_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).toBody()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'photoUrl', reason: 'it took longer than 1 s' }],
    });
    // The server saw the connection go.
    await expect.poll(() => sockets.size, { timeout: 5_000 }).toBe(0);
  }, 15_000);
});
