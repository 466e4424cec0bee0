/**
 * An upgrade loses nothing: signing secrets stored in plaintext by an earlier version (webhook subscriptions and
 * embed secrets) are sealed at the first start with a master key, and keep signing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeServices, openServices, STORE_INDEXES } from '../../src/app.js';
import { loadConfig } from '../../src/core/config.js';
import { recordAad } from '../../src/core/keyring.js';
import { createLogger } from '../../src/core/log.js';
import { openLowdbStore } from '../../src/store/index.js';
import { buildRequest, verifyWebhookSignature, type WebhookRecord } from '../../src/webhooks/index.js';
import { openSecrets } from '../../src/webhooks/secrets.js';
import { tmpDir } from '../helpers.js';
import { storeFiles } from '../support/store-files.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('plaintext secrets of an earlier version', () => {
  it('are sealed at start and still sign', async () => {
    const { dir, cleanup } = await tmpDir('svc-migrate-secrets-');
    cleanups.push(cleanup);
    // The data file as an earlier version left it: no key file, secrets in plaintext.
    const old = await openLowdbStore({ dataDir: dir, indexes: STORE_INDEXES });
    const webhook = {
      id: 'whk_old',
      _id: 'whk_old',
      ownerId: 'own_old',
      url: 'https://hooks.example.com/x',
      name: 'old',
      events: ['*'],
      status: 'active',
      secret: 'whsec_plain_current_0123456789',
      previousSecret: 'whsec_plain_previous_0123456789',
      previousSecretExpiresAt: Date.now() + 3_600_000,
      failures: 0,
      consecutiveFailures: 0,
      lastDeliveryAttempt: null,
      lastDeliveryStatus: null,
      createdAt: '',
      updatedAt: '',
    };
    await old.put('webhooks', webhook);
    await old.put('embed_secrets', {
      id: 'key_old',
      ownerId: 'own_old',
      secret: 'whsec_plain_embed_0123456789',
      previousSecret: null,
      previousSecretExpiresAt: null,
      createdAt: '',
      updatedAt: '',
    });
    await old.close();
    expect(await storeFiles(dir)).toContain('whsec_plain_current_0123456789');

    const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('silent') });
    try {
      await services.store.flush();
      const file = await storeFiles(dir); // the snapshot and the journal
      for (const s of [
        'whsec_plain_current_0123456789',
        'whsec_plain_previous_0123456789',
        'whsec_plain_embed_0123456789',
      ])
        expect(file).not.toContain(s);
      const stored = (await services.store.get<WebhookRecord>('webhooks', 'whk_old'))!;
      expect(stored.secret).toMatch(/^svcenc1\./);
      const opened = openSecrets(services.keyring, 'webhooks', stored);
      expect(opened).toMatchObject({ secret: webhook.secret, previousSecret: webhook.previousSecret });
      const embed = (await services.store.get<{ id: string; secret: string }>('embed_secrets', 'key_old'))!;
      expect(services.keyring.openString(embed.secret, recordAad('embed_secrets', 'key_old'))).toBe(
        'whsec_plain_embed_0123456789',
      );
      // Signing uses the opened secrets: both verify.
      const now = Date.now();
      const event = {
        id: 'evt_1',
        type: 'contract.generated',
        ownerId: 'own_old',
        created: Math.floor(now / 1000),
        createdAt: new Date(now).toISOString(),
        apiVersion: 'v1' as const,
        data: {},
      };
      const { body, headers } = buildRequest(event, { ...stored, ...opened }, 1, now);
      expect(verifyWebhookSignature(body, headers['x-webhook-signature']!, webhook.secret)).toBe(true);
      expect(verifyWebhookSignature(body, headers['x-webhook-signature']!, webhook.previousSecret)).toBe(true);
    } finally {
      await closeServices(services);
    }
  });
});
