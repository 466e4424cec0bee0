/** Shared by the package tests: generating a contract through REST, downloading its package, unpacking it. */
import { gunzipSync, strFromU8, unzipSync } from 'fflate';
import type { TestServer } from '../helpers.js';

export const EVM_PLAN = {
  blockchain: 'evm',
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 180 },
};

export async function generate(server: TestServer, key: string, plan: object): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/contracts/generate',
    headers: { authorization: `Bearer ${key}` },
    payload: plan,
  });
  if (res.statusCode !== 200) throw new Error(`generate: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json().id as string;
}

export async function download(server: TestServer, key: string, id: string, query = '') {
  const res = await server.app.inject({
    method: 'GET',
    url: `/api/v1/contracts/${id}/package${query}`,
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload, json: () => res.json() };
}

/** Reads a ustar archive (regular files only, as the package writes): path → bytes, and each entry's mode/mtime. */
export function untar(tar: Uint8Array): {
  files: Record<string, Uint8Array>;
  meta: Record<string, { mode: number; mtime: number }>;
} {
  const files: Record<string, Uint8Array> = {};
  const meta: Record<string, { mode: number; mtime: number }> = {};
  const text = (at: number, len: number) => strFromU8(tar.subarray(at, at + len)).replace(/\0.*$/s, '');
  let at = 0;
  while (at + 512 <= tar.length && tar[at] !== 0) {
    const prefix = text(at + 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(at, 100);
    const size = Number.parseInt(text(at + 124, 12), 8);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (tar[at + i] as number);
    if (sum !== Number.parseInt(text(at + 148, 8), 8)) throw new Error(`bad tar checksum for ${name}`);
    files[name] = tar.slice(at + 512, at + 512 + size);
    meta[name] = { mode: Number.parseInt(text(at + 100, 8), 8), mtime: Number.parseInt(text(at + 136, 12), 8) };
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return { files, meta };
}

/** Unpacks a zip or tar.gz package into path → bytes, the common root folder removed. */
export function unpack(bytes: Uint8Array, format: 'zip' | 'tar.gz', root: string): Record<string, Uint8Array> {
  const all = format === 'zip' ? unzipSync(bytes) : untar(gunzipSync(bytes)).files;
  const out: Record<string, Uint8Array> = {};
  for (const [path, data] of Object.entries(all)) {
    if (!path.startsWith(`${root}/`)) throw new Error(`entry outside the root folder: ${path}`);
    out[path.slice(root.length + 1)] = data;
  }
  return out;
}
