import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Keyring,
  MasterKeyError,
  SealError,
  generateMasterKey,
  isSealed,
  keyIdOf,
  loadMasterKey,
  parseMasterKey,
  sealedKeyId,
} from '../../src/core/keyring.js';
import { ConfigError } from '../../src/core/config.js';

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length) await rm(dirs.pop()!, { recursive: true, force: true });
});
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'svc-keyring-'));
  dirs.push(d);
  return d;
}

describe('Keyring: AES-256-GCM seal and open', () => {
  const k = new Keyring(generateMasterKey());

  it('round-trips, with a fresh nonce each time and the key id in the sealed value', () => {
    const a = k.seal('whsec_abc', 'webhooks/w1');
    const b = k.seal('whsec_abc', 'webhooks/w1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec_abc');
    expect(isSealed(a)).toBe(true);
    expect(sealedKeyId(a)).toBe(k.keyId);
    expect(k.openString(a, 'webhooks/w1')).toBe('whsec_abc');
    expect(k.openString(b, 'webhooks/w1')).toBe('whsec_abc');
  });

  it("refuses another record's AAD, a changed byte, and another key", () => {
    const a = k.seal('whsec_abc', 'webhooks/w1');
    expect(() => k.open(a, 'webhooks/w2')).toThrow(SealError);
    const i = a.length - 5;
    const flipped = a.slice(0, i) + (a[i] === 'A' ? 'B' : 'A') + a.slice(i + 1);
    expect(() => k.open(flipped, 'webhooks/w1')).toThrow(SealError);
    const other = new Keyring(generateMasterKey());
    expect(() => other.open(a, 'webhooks/w1')).toThrow(/another master key/);
    expect(() => k.open('whsec_plain', 'webhooks/w1')).toThrow(SealError);
  });

  it('reveal passes plaintext of earlier versions through; reseal moves values onto the current key', () => {
    expect(k.reveal('whsec_plain', 'webhooks/w1')).toBe('whsec_plain');
    const old = new Keyring(generateMasterKey());
    const sealedOld = old.seal('whsec_x', 'webhooks/w1');
    const rotating = new Keyring(generateMasterKey(), [generateMasterKey()]);
    expect(() => rotating.reseal(sealedOld, 'webhooks/w1')).toThrow(SealError); // not given the old key
    const oldKey = generateMasterKey();
    const o = new Keyring(oldKey);
    const v = o.seal('whsec_y', 'webhooks/w1');
    const n = new Keyring(generateMasterKey(), [oldKey]);
    const moved = n.reseal(v, 'webhooks/w1');
    expect(sealedKeyId(moved)).toBe(n.keyId);
    expect(n.openString(moved, 'webhooks/w1')).toBe('whsec_y');
    expect(n.reseal(moved, 'webhooks/w1')).toBe(moved); // already current: unchanged
    expect(() => o.open(moved, 'webhooks/w1')).toThrow(SealError);
    expect(sealedKeyId(n.reseal('whsec_plain', 'webhooks/w1'))).toBe(n.keyId);
  });

  it('wraps data keys for envelope encryption; a wrapped key is not a sealed secret of the same record', () => {
    const dataKey = generateMasterKey();
    const w = k.wrapKey(dataKey, 'vaults/v1');
    expect(k.unwrapKey(w, 'vaults/v1').equals(dataKey)).toBe(true);
    expect(() => k.open(w, 'vaults/v1')).toThrow(SealError);
    expect(() => k.unwrapKey(w, 'vaults/v2')).toThrow(SealError);
  });
});

describe('loadMasterKey', () => {
  const key = generateMasterKey();
  const b64 = key.toString('base64');

  it('reads SVC_MASTER_KEY and SVC_MASTER_KEY_FILE; refuses malformed keys without echoing them', async () => {
    const dir = await tmp();
    expect((await loadMasterKey({ value: b64, dataDir: dir, shared: true })).key.equals(key)).toBe(true);
    const file = path.join(dir, 'k');
    await writeFile(file, b64 + '\n');
    expect((await loadMasterKey({ file, dataDir: dir, shared: true })).key.equals(key)).toBe(true);
    const short = Buffer.alloc(16, 1).toString('base64');
    await expect(loadMasterKey({ value: short, dataDir: dir, shared: false })).rejects.toThrow(
      /32 random bytes in base64/,
    );
    const message = await loadMasterKey({ value: short, dataDir: dir, shared: false }).catch((e: Error) => e.message);
    expect(message).not.toContain(short);
    await expect(loadMasterKey({ file: path.join(dir, 'missing'), dataDir: dir, shared: false })).rejects.toThrow(
      /cannot read the master key file/,
    );
    await expect(loadMasterKey({ value: b64, file, dataDir: dir, shared: false })).rejects.toThrow(/not both/);
    expect(() => parseMasterKey('not base64 at all', 'X')).toThrow(MasterKeyError);
    expect(new MasterKeyError('x')).toBeInstanceOf(ConfigError); // the CLI prints it in one line, exit code 2
  });

  it('with PostgreSQL, refuses to start without a configured key instead of making one per instance', async () => {
    const dir = await tmp();
    await expect(loadMasterKey({ dataDir: dir, shared: true })).rejects.toThrow(
      /every instance must use the same master key: set SVC_MASTER_KEY/,
    );
  });

  it("the embedded setup creates the data directory's key file once (0600), warns once, and reuses it", async () => {
    const dir = path.join(await tmp(), 'data');
    const warnings: string[] = [];
    // The notice is given once per process: a fresh copy of the module, so another file's key made earlier in this
    // worker (files share modules) has not used it up.
    vi.resetModules();
    const { loadMasterKey } = await import('../../src/core/keyring.js');
    const first = await loadMasterKey({ dataDir: dir, shared: false }, (m) => warnings.push(m));
    expect(first.created).toBe(true);
    expect(first.file).toBe(path.join(dir, 'master.key'));
    expect((await stat(first.file!)).mode & 0o777).toBe(0o600);
    expect(parseMasterKey(await readFile(first.file!, 'utf8'), 'f').equals(first.key)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/production .*SVC_MASTER_KEY/);
    expect(warnings[0]).not.toContain(first.key.toString('base64'));
    const again = await loadMasterKey({ dataDir: dir, shared: false }, (m) => warnings.push(m));
    expect(again.created).toBe(false);
    expect(keyIdOf(again.key)).toBe(keyIdOf(first.key));
    expect(warnings).toHaveLength(1);
  });
});
