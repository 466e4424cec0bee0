/**
 * A local stand-in for the parts of Stripe's HTTP API this service calls,
 * reached through the official SDK's host/port/protocol options. It speaks the
 * wire format the SDK uses (form-encoded POST bodies with bracketed keys,
 * Stripe-shaped JSON objects and `{error: {type, code, message}}` errors,
 * Idempotency-Key replay) and records every request for assertions.
 *
 * It also plays Stripe's side of the story: a test completes a checkout,
 * refunds a charge or expires a session, gets the Stripe event object, and
 * delivers it to the service signed with the SDK's test header helper.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

export const STANDIN_SECRET_KEY = 'sk_test_standin_0123456789';
export const STANDIN_WEBHOOK_SECRET = 'whsec_standin_test_secret_0123456789';

/** Stripe-shaped JSON, read and written field by field here and by the tests that look into the stand-in's records. */
// biome-ignore lint/suspicious/noExplicitAny: Stripe's JSON as a client reads it, field by field; the gateway and autoreload tests read these records too
type Obj = Record<string, any>;

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body parsed into nested objects (strings as sent). */
  body: Obj;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

/** How an off-session PaymentIntent confirmation turns out. */
export type ChargeOutcome = 'succeed' | 'decline' | 'authentication_required' | 'server_error';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(body.message);
  }
}

const invalid = (message: string, param?: string, code = 'parameter_missing') =>
  new StripeHttpError(400, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });
const missing = (what: string, given: string) =>
  new StripeHttpError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${given}'`,
    param: 'id',
  });

export class StripeStandin {
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly paymentIntents = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  /** Outcome of the next off-session confirmations (tests switch it). */
  chargeOutcome: ChargeOutcome = 'succeed';
  /** Milliseconds each answer is held back (to widen race windows in tests). */
  delayMs = 0;
  private readonly idempotent = new Map<string, { status: number; body: Obj }>();
  private server: http.Server | undefined;
  /** http://127.0.0.1:PORT once started. */
  url = '';

  constructor(
    readonly secretKey = STANDIN_SECRET_KEY,
    readonly webhookSecret = STANDIN_WEBHOOK_SECRET,
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Requests to one path pattern (e.g. `POST /v1/payment_intents`). */
  calls(methodAndPath: string): RecordedRequest[] {
    const [method, path] = methodAndPath.split(' ');
    return this.requests.filter(
      (r) => r.method === method && (path!.endsWith('*') ? r.path.startsWith(path!.slice(0, -1)) : r.path === path),
    );
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://standin');
    const body = (req.method === 'GET' ? qs.parse(url.search.slice(1)) : qs.parse(raw)) as Obj;
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      body,
      idempotencyKey,
      stripeVersion: req.headers['stripe-version'] as string | undefined,
    });
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const send = (status: number, payload: Obj) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': id('req'),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      return;
    }
    const replayKey = idempotencyKey && req.method === 'POST' ? `${url.pathname} ${idempotencyKey}` : undefined;
    const replay = replayKey ? this.idempotent.get(replayKey) : undefined;
    if (replay) {
      send(replay.status, replay.body);
      return;
    }
    let status = 200;
    let payload: Obj;
    try {
      payload = this.route(req.method ?? '', url.pathname, body);
    } catch (err) {
      if (!(err instanceof StripeHttpError)) throw err;
      status = err.status;
      payload = { error: err.body };
    }
    // Stripe replays the first answer to a repeated key, errors included (but not 5xx).
    if (replayKey && status < 500) this.idempotent.set(replayKey, { status, body: payload });
    send(status, payload);
  }

  private route(method: string, path: string, body: Obj): Obj {
    const parts = path.split('/').filter(Boolean); // ['v1', ...]
    if (parts[0] !== 'v1') throw missing('route', path);
    const [, a, b, c, d] = parts;
    if (a === 'customers' && method === 'POST' && !b) return this.createCustomer(body);
    if (a === 'customers' && method === 'GET' && b) return this.customers.get(b) ?? this.fail(missing('customer', b));
    if (a === 'checkout' && b === 'sessions') {
      if (method === 'POST' && !c) return this.createSession(body);
      if (method === 'GET' && c && !d) return this.sessions.get(c) ?? this.fail(missing('checkout.session', c));
      if (method === 'POST' && c && d === 'expire') return this.expireSession(c);
    }
    if (a === 'payment_intents') {
      if (method === 'POST' && !b) return this.createPaymentIntent(body);
      if (method === 'GET' && b) return this.paymentIntents.get(b) ?? this.fail(missing('payment_intent', b));
    }
    if (a === 'charges' && method === 'GET' && b) return this.charges.get(b) ?? this.fail(missing('charge', b));
    throw new StripeHttpError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  private fail(err: StripeHttpError): never {
    throw err;
  }

  private createCustomer(body: Obj): Obj {
    const customer = {
      id: id('cus'),
      object: 'customer',
      created: nowSeconds(),
      email: body.email ?? null,
      metadata: body.metadata ?? {},
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createSession(body: Obj): Obj {
    if (body.mode !== 'payment')
      throw invalid('This stand-in only supports mode=payment.', 'mode', 'parameter_invalid_string');
    for (const field of ['success_url', 'cancel_url'] as const)
      if (!body[field]) throw invalid(`Missing required param: ${field}.`, field);
    const items = body.line_items as Obj[] | undefined;
    if (!Array.isArray(items) || items.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    let amount = 0;
    let currency: string | undefined;
    for (const item of items) {
      const unit = Number(item.price_data?.unit_amount);
      const quantity = Number(item.quantity ?? 1);
      if (!Number.isInteger(unit) || unit <= 0)
        throw invalid(
          'line_items[0][price_data][unit_amount] must be a positive integer.',
          'line_items[0][price_data][unit_amount]',
          'parameter_invalid_integer',
        );
      if (!item.price_data?.currency)
        throw invalid(
          'Missing required param: line_items[0][price_data][currency].',
          'line_items[0][price_data][currency]',
        );
      if (!item.price_data?.product_data?.name)
        throw invalid(
          'Missing required param: line_items[0][price_data][product_data][name].',
          'line_items[0][price_data][product_data][name]',
        );
      amount += unit * quantity;
      currency = item.price_data.currency;
    }
    if (body.customer && !this.customers.has(body.customer)) throw missing('customer', body.customer);
    const sessionId = `cs_test_${randomBytes(18).toString('hex')}`;
    const session = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: body.cancel_url,
      client_reference_id: body.client_reference_id ?? null,
      created: nowSeconds(),
      currency,
      customer: body.customer ?? null,
      customer_creation: body.customer ? null : (body.customer_creation ?? 'if_required'),
      expires_at: nowSeconds() + 24 * 3600,
      livemode: false,
      metadata: body.metadata ?? {},
      mode: 'payment',
      payment_intent: null as string | null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: body.success_url,
      url: `https://checkout.stripe.test/c/pay/${sessionId}`,
      // Kept for completion, as Stripe keeps the PaymentIntent data it was given.
      _payment_intent_data: body.payment_intent_data ?? {},
    };
    this.sessions.set(session.id, session);
    return this.publicSession(session);
  }

  private publicSession(session: Obj): Obj {
    const { _payment_intent_data: _hidden, ...shown } = session;
    return structuredClone(shown);
  }

  private expireSession(sessionId: string): Obj {
    const session = this.sessions.get(sessionId);
    if (!session) throw missing('checkout.session', sessionId);
    if (session.status !== 'open')
      throw invalid(
        `Only Checkout Sessions with a status of 'open' can be expired.`,
        undefined,
        'checkout_session_not_open',
      );
    session.status = 'expired';
    session.url = null;
    return this.publicSession(session);
  }

  private createPaymentIntent(body: Obj): Obj {
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount <= 0) throw invalid('Missing required param: amount.', 'amount');
    if (!body.currency) throw invalid('Missing required param: currency.', 'currency');
    if (body.customer && !this.customers.has(body.customer)) throw missing('customer', body.customer);
    const pi: Obj = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: body.currency,
      customer: body.customer ?? null,
      payment_method: body.payment_method ?? null,
      metadata: body.metadata ?? {},
      setup_future_usage: body.setup_future_usage ?? null,
      created: nowSeconds(),
      latest_charge: null,
      last_payment_error: null,
      livemode: false,
      status: 'requires_payment_method',
    };
    this.paymentIntents.set(pi.id, pi);
    if (body.confirm !== 'true') return structuredClone(pi);
    if (!pi.payment_method) throw invalid('You must provide a payment_method to confirm.', 'payment_method');
    switch (this.chargeOutcome) {
      case 'succeed':
        this.succeed(pi);
        return structuredClone(pi);
      case 'server_error':
        throw new StripeHttpError(500, { type: 'api_error', message: 'An unknown error occurred (stand-in).' });
      case 'decline':
      case 'authentication_required': {
        const code = this.chargeOutcome === 'decline' ? 'card_declined' : 'authentication_required';
        const message =
          code === 'card_declined'
            ? 'Your card was declined.'
            : 'This payment requires authentication by the customer.';
        const charge = this.newCharge(pi, 'failed');
        pi.status = code === 'card_declined' ? 'requires_payment_method' : 'requires_action';
        pi.latest_charge = charge.id;
        pi.last_payment_error = {
          type: 'card_error',
          code,
          decline_code: code === 'card_declined' ? 'generic_decline' : undefined,
          message,
        };
        throw new StripeHttpError(402, {
          type: 'card_error',
          code,
          message,
          charge: charge.id,
          ...(code === 'card_declined' ? { decline_code: 'generic_decline' } : {}),
          payment_intent: structuredClone(pi),
        });
      }
    }
  }

  private newCharge(pi: Obj, status: 'succeeded' | 'failed'): Obj {
    const charge = {
      id: id('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_captured: status === 'succeeded' ? pi.amount : 0,
      amount_refunded: 0,
      captured: status === 'succeeded',
      created: nowSeconds(),
      currency: pi.currency,
      customer: pi.customer,
      livemode: false,
      metadata: {},
      paid: status === 'succeeded',
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      refunded: false,
      status,
    };
    this.charges.set(charge.id, charge);
    return charge;
  }

  private succeed(pi: Obj): void {
    const charge = this.newCharge(pi, 'succeeded');
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.latest_charge = charge.id;
  }

  // ---- Stripe's side: what happens in the customer's browser and Stripe's back office ----

  /**
   * The customer pays on the checkout page: a customer is created when needed,
   * a PaymentIntent succeeds with a saved card, and the session completes.
   * Returns the `checkout.session.completed` event.
   */
  completeCheckout(sessionId: string): Stripe.Event {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (!session.customer) session.customer = this.createCustomer({}).id;
    const pid = session._payment_intent_data as Obj;
    const pi: Obj = {
      id: id('pi'),
      object: 'payment_intent',
      amount: session.amount_total,
      amount_received: 0,
      currency: session.currency,
      customer: session.customer,
      payment_method: id('pm'),
      metadata: pid.metadata ?? {},
      setup_future_usage: pid.setup_future_usage ?? null,
      created: nowSeconds(),
      latest_charge: null,
      last_payment_error: null,
      livemode: false,
      status: 'processing',
    };
    this.paymentIntents.set(pi.id, pi);
    this.succeed(pi);
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = pi.id;
    session.url = null;
    return this.event('checkout.session.completed', this.publicSession(session));
  }

  /** The session times out unpaid: `checkout.session.expired`. */
  expireCheckout(sessionId: string): Stripe.Event {
    return this.event('checkout.session.expired', this.expireSession(sessionId));
  }

  /** The operator refunds (part of) a payment in the dashboard: `charge.refunded` with the cumulative amount refunded. */
  refund(paymentIntentId: string, amount?: number): Stripe.Event {
    const pi = this.paymentIntents.get(paymentIntentId);
    if (!pi?.latest_charge) throw new Error(`no charge for ${paymentIntentId}`);
    const charge = this.charges.get(pi.latest_charge)!;
    charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + (amount ?? charge.amount));
    charge.refunded = charge.amount_refunded === charge.amount;
    return this.event('charge.refunded', structuredClone(charge));
  }

  /** `payment_intent.payment_failed` for a PaymentIntent (e.g. one that failed off session). */
  paymentFailed(paymentIntentId: string): Stripe.Event {
    const pi = this.paymentIntents.get(paymentIntentId);
    if (!pi) throw new Error(`no payment intent ${paymentIntentId}`);
    return this.event('payment_intent.payment_failed', structuredClone(pi));
  }

  /** A Stripe event wrapping `object`. */
  event(type: string, object: Obj): Stripe.Event {
    return {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowSeconds(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    } as unknown as Stripe.Event;
  }

  /** The Stripe-Signature header for a payload, by the SDK's own test helper. */
  sign(payload: string, opts: { timestamp?: number; secret?: string } = {}): string {
    return Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? this.webhookSecret,
      ...(opts.timestamp !== undefined ? { timestamp: opts.timestamp } : {}),
    });
  }

  /**
   * Delivers an event to the service's webhook endpoint as Stripe does: the
   * exact JSON bytes, signed (or with the header given).
   */
  async deliver(
    endpoint: string,
    event: Stripe.Event,
    opts: { timestamp?: number; secret?: string; signature?: string | null; body?: string } = {},
  ): Promise<{ status: number; json: unknown }> {
    const payload = opts.body ?? JSON.stringify(event, null, 2);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    };
    const signature = opts.signature === undefined ? this.sign(payload, opts) : opts.signature;
    if (signature !== null) headers['stripe-signature'] = signature;
    const res = await fetch(endpoint, { method: 'POST', headers, body: payload });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json };
  }
}

/** Starts a stand-in; stop it with `await standin.stop()`. */
export async function startStripeStandin(): Promise<StripeStandin> {
  return new StripeStandin().start();
}
