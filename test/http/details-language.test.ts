import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanMessage, localeOfHeader, rankedLanguages } from '../../src/core/messages/index.js';
import { startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
/** A plan with three problems: a mistyped checksum, a share with three decimals, and shares not summing to 100. */
const BAD_PLAN = {
  blockchain: 'evm',
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169Ee7', percentage: 60.125 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 30 },
  ],
};

async function validate(body: unknown, language?: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/contracts/validate',
    headers: {
      authorization: `Bearer ${server.adminKey}`,
      'content-type': 'application/json',
      ...(language ? { 'accept-language': language } : {}),
    },
    payload: JSON.stringify(body),
  });
  expect(res.statusCode, res.body).toBe(400);
  const json = res.json() as { error: { code: string; details: Array<{ field: string; reason: string }> } };
  expect(json.error.code).toBe('VALIDATION_ERROR');
  return json.error.details;
}

describe("validation details in the caller's language", () => {
  it('a plan refused in English by default is refused in French, field by field, when the request asks for it', async () => {
    const english = await validate(BAD_PLAN);
    const french = await validate(BAD_PLAN, 'fr-CA,fr;q=0.9,en;q=0.5');
    expect(french.map((d) => d.field)).toEqual(english.map((d) => d.field));
    expect(french.map((d) => d.field)).toEqual(
      expect.arrayContaining(['beneficiaries.0.address', 'beneficiaries.0.percentage', 'beneficiaries']),
    );
    const share = french.find((d) => d.field === 'beneficiaries.0.percentage')!;
    expect(share.reason).toBe(humanMessage({ code: 'percentage_decimals' }, 'fr'));
    expect(share.reason).not.toBe(english.find((d) => d.field === 'beneficiaries.0.percentage')!.reason);
    // The checksum typo names the corrected address in French too.
    const typo = french.find((d) => d.field === 'beneficiaries.0.address')!;
    expect(typo.reason).toContain('0x52908400098527886E0F7030069857D2E4169EE7');
    expect(typo.reason).not.toBe(english.find((d) => d.field === 'beneficiaries.0.address')!.reason);
  });

  it("zod's own problems (a missing field, a number given as text) are said in Arabic when asked", async () => {
    const english = await validate({
      blockchain: 'evm',
      ownerAddress: OWNER,
      beneficiaries: [{ name: 'A', address: OWNER, percentage: '30,5' }],
    });
    const arabic = await validate(
      { blockchain: 'evm', ownerAddress: OWNER, beneficiaries: [{ name: 'A', address: OWNER, percentage: '30,5' }] },
      'ar',
    );
    const field = 'beneficiaries.0.percentage';
    const en = english.find((d) => d.field === field)!.reason;
    const ar = arabic.find((d) => d.field === field)!.reason;
    expect(ar).not.toBe(en);
    expect(ar).toMatch(/[\u0600-\u06FF]/);
  });

  it('a required field left out, or a list left empty, is said so in the language asked for', async () => {
    const plan = { blockchain: 'evm', ownerAddress: OWNER };
    expect(await validate(plan)).toEqual([{ field: 'beneficiaries', reason: 'This field is required.' }]);
    expect(await validate(plan, 'fr')).toEqual([{ field: 'beneficiaries', reason: 'Ce champ est obligatoire.' }]);
    expect(await validate(plan, 'es')).toEqual([{ field: 'beneficiaries', reason: 'Este campo es obligatorio.' }]);
    expect(await validate(plan, 'ar')).toEqual([{ field: 'beneficiaries', reason: 'هذا الحقل مطلوب.' }]);
    // An empty list, likewise.
    const none = { ...plan, beneficiaries: [] };
    expect(await validate(none)).toEqual([{ field: 'beneficiaries', reason: 'At least 1 is needed.' }]);
    expect(await validate(none, 'fr')).toEqual([{ field: 'beneficiaries', reason: 'Il en faut au moins 1.' }]);
  });

  it('a language the service does not speak, or none, leaves the reasons in English', async () => {
    const english = await validate(BAD_PLAN);
    expect(await validate(BAD_PLAN, 'de-DE,de;q=0.9')).toEqual(english);
    expect(await validate(BAD_PLAN, 'fr;q=0')).toEqual(english);
  });

  it('MCP over HTTP says them in the language of its POST too', async () => {
    const rpc = async (language?: string) => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: `Bearer ${server.adminKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(language ? { 'accept-language': language } : {}),
        },
        payload: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'validate_plan', arguments: BAD_PLAN },
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const result = (res.json() as { result: { isError: boolean; content: Array<{ text: string }> } }).result;
      expect(result.isError).toBe(true);
      return (JSON.parse(result.content[0]!.text) as { error: { details: Array<{ field: string; reason: string }> } })
        .error.details;
    };
    const spanish = await rpc('es');
    expect(spanish).toEqual(await validate(BAD_PLAN, 'es'));
    expect(spanish).not.toEqual(await rpc());
  });

  it('reads Accept-Language by weight, then by order, regions aside', () => {
    expect(rankedLanguages('de;q=0.5, es-MX, fr;q=0.8')).toEqual(['es', 'fr', 'de']);
    expect(localeOfHeader('de, pt;q=0.9, ar;q=0.1')).toBe('ar');
    expect(localeOfHeader('de')).toBeUndefined();
    expect(localeOfHeader(undefined)).toBeUndefined();
  });
});
