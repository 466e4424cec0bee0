/**
 * The one cookie the service reads and writes: the session cookie (`svc_session`). Read only when a request
 * presents no API key, written only when a handler asked for it (sign-in, sign-out). No cookie plugin: a plugin parses
 * every request's Cookie header in a hook and adds a second onSend hook, a cost paid by every API-key request for
 * nothing (docs/architecture.md, "The REST hot path").
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '../accounts/sessions.js';

const PREFIX = `${SESSION_COOKIE}=`;

function decode(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The session cookie's value in a request's Cookie header (the first one when it is sent twice), or undefined. */
export function sessionToken(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.cookie;
  if (!header || !header.includes(PREFIX)) return undefined;
  for (const pair of header.split(';')) {
    const p = pair.trim();
    if (!p.startsWith(PREFIX)) continue;
    return decode(p.slice(PREFIX.length).trim()) || undefined;
  }
  return undefined;
}

/** How the cookie is set: HttpOnly, SameSite=Lax, for the whole site, Secure when the public URL is HTTPS. */
export interface CookieOptions {
  secure: boolean;
}

function attributes(options: CookieOptions, expires: Date): string {
  return `; Path=/; Expires=${expires.toUTCString()}; HttpOnly${options.secure ? '; Secure' : ''}; SameSite=Lax`;
}

/** Sets the session cookie to a token until it expires. */
export function setSessionCookie(reply: FastifyReply, token: string, expires: Date, options: CookieOptions): void {
  reply.header('Set-Cookie', `${PREFIX}${encodeURIComponent(token)}${attributes(options, expires)}`);
}

/** Clears the session cookie (sign-out). */
export function clearSessionCookie(reply: FastifyReply, options: CookieOptions): void {
  reply.header('Set-Cookie', `${PREFIX}; Max-Age=0${attributes(options, new Date(0))}`);
}
