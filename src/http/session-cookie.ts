/**
 * The one cookie the service reads and writes: the session cookie. Read only when a request presents no API key,
 * written only when a handler asked for it (sign-in, sign-out), with the `cookie` library's parser and serializer. No
 * cookie plugin: a plugin parses every request's Cookie header in a hook and adds a second onSend hook, a cost paid by
 * every API-key request for nothing (docs/architecture.md, "The REST hot path").
 *
 * Its name is `svc_session` where the service is reached over plain HTTP (a local start) and `__Host-svc_session` when
 * its public URL is HTTPS. Browsers set a `__Host-` cookie only when it is Secure, for the path `/` and without a
 * Domain, so a page on another host under the same domain (a sibling subdomain) cannot set or overwrite it: it could
 * set a plain `svc_session` for the whole domain and sign a visitor into the attacker's account. Over HTTPS the plain
 * name is therefore not read at all.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '../accounts/sessions.js';

/** How the service sets its session cookie: Secure when its public URL is HTTPS. */
export const cookieOptionsOf = (config: { publicUrl?: string | undefined }): CookieOptions => ({
  secure: (config.publicUrl ?? '').startsWith('https://'),
});

/** The session cookie's name: `__Host-svc_session` when it is Secure (the public URL is HTTPS), else `svc_session`. */
export const sessionCookieName = (options: CookieOptions): string =>
  options.secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;

/**
 * The session cookie's value in a request's Cookie header (the first one when it is sent twice), or undefined. Over
 * HTTPS only the `__Host-` cookie counts.
 */
export function sessionToken(headers: IncomingHttpHeaders, options: CookieOptions): string | undefined {
  const header = headers.cookie;
  const name = sessionCookieName(options);
  // Most requests carry an API key and no session cookie: they are not parsed at all.
  if (!header?.includes(`${name}=`)) return undefined;
  return parseCookie(header, { decode })[name] || undefined;
}

/** A cookie value as sent: without the double quotes RFC 6265 allows around it, percent-decoded when it can be. */
function decode(value: string): string {
  const bare = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

/** How the cookie is set: HttpOnly, SameSite=Lax, for the whole site, Secure when the public URL is HTTPS. */
export interface CookieOptions {
  secure: boolean;
}

function setCookie(reply: FastifyReply, value: string, expires: Date, options: CookieOptions, maxAge?: number): void {
  reply.header(
    'Set-Cookie',
    stringifySetCookie(
      {
        name: sessionCookieName(options),
        value,
        ...(maxAge !== undefined ? { maxAge } : {}),
        path: '/',
        expires,
        httpOnly: true,
        secure: options.secure,
        sameSite: 'lax',
      },
      // The token percent-encoded whole, as sessionToken reads it back.
      { encode: encodeURIComponent },
    ),
  );
}

/** Sets the session cookie to a token until it expires. */
export function setSessionCookie(reply: FastifyReply, token: string, expires: Date, options: CookieOptions): void {
  setCookie(reply, token, expires, options);
}

/** Clears the session cookie (sign-out). */
export function clearSessionCookie(reply: FastifyReply, options: CookieOptions): void {
  setCookie(reply, '', new Date(0), options, 0);
}
