import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';

describe('chain and mail configuration', () => {
  it('has empty chains and the .eml fallback by default', () => {
    const config = loadConfig({}, {});
    expect(config.chains).toEqual({
      evmRpcUrls: {},
      tonApis: {},
      tonApiKey: undefined,
      watchPollMs: 15_000,
      watchConfirmations: 2,
    });
    expect(config.mail).toEqual({ smtpUrl: undefined, from: 'svc <no-reply@localhost>' });
  });

  it('reads the EVM endpoints, TON APIs and watcher settings', () => {
    const config = loadConfig(
      {},
      {
        SVC_EVM_RPC_URLS: '{"31337": "http://127.0.0.1:8545", "1": "https://rpc.example"}',
        SVC_TON_API_TESTNET: 'http://127.0.0.1:9000',
        SVC_TON_API_KEY: 'k',
        SVC_WATCH_POLL_MS: '500',
        SVC_WATCH_CONFIRMATIONS: '0',
      },
    );
    expect(config.chains).toEqual({
      evmRpcUrls: { '31337': 'http://127.0.0.1:8545', '1': 'https://rpc.example' },
      tonApis: { 'ton-testnet': 'http://127.0.0.1:9000' },
      tonApiKey: 'k',
      watchPollMs: 500,
      watchConfirmations: 0,
    });
  });

  it.each([
    ['SVC_EVM_RPC_URLS', 'http://127.0.0.1:8545', /JSON map/],
    ['SVC_EVM_RPC_URLS', '["http://x"]', /JSON map/],
    ['SVC_EVM_RPC_URLS', '{"mainnet": "http://x"}', /not a chain id/],
    ['SVC_EVM_RPC_URLS', '{"1": 5}', /must be a string/],
    ['SVC_EVM_RPC_URLS', '{"1": "ws://x"}', /http or https/],
    ['SVC_TON_API_MAINNET', 'ftp://x', /http or https/],
    ['SVC_WATCH_POLL_MS', '0', /positive whole number/],
    ['SVC_WATCH_CONFIRMATIONS', '-1', /0 to 999/],
    ['SVC_SMTP_URL', 'http://mail', /smtps:\/\//],
    ['SVC_MAIL_FROM', 'a@b\r\nBcc: x@y', /one line/],
  ])('refuses %s=%s', (name, value, message) => {
    expect(() => loadConfig({}, { [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({}, { [name]: value })).toThrow(message);
  });

  it('reads SMTP and the sender', () => {
    const config = loadConfig({}, { SVC_SMTP_URL: 'smtp://127.0.0.1:2525', SVC_MAIL_FROM: 'Estate <e@example.org>' });
    expect(config.mail).toEqual({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'Estate <e@example.org>' });
  });
});
