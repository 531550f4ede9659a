import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { AinternError } from "../core/index.js";

/** The cookie that carries the access token after the first visit. */
export const TOKEN_COOKIE = "aintern_console";

/** A new access token: 32 random bytes, base64url. */
export function newAccessToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The fewest characters an access token given to the console may have. */
export const MIN_ACCESS_TOKEN_LENGTH = 16;

/**
 * `token` when it can guard the console: at least {@link MIN_ACCESS_TOKEN_LENGTH} characters a
 * cookie and a link carry as they are (letters, digits, `-._~+/=`). Otherwise throws, naming the
 * problem: an empty `AINTERN_CONSOLE_TOKEN` made the token `""`, which every request without a
 * cookie matched.
 */
export function checkedAccessToken(token: string): string {
  if (token.length >= MIN_ACCESS_TOKEN_LENGTH && /^[A-Za-z0-9._~+/=-]+$/.test(token)) return token;
  throw new AinternError(
    "WEAK_CONSOLE_TOKEN",
    token.length < MIN_ACCESS_TOKEN_LENGTH
      ? `The console's access token (AINTERN_CONSOLE_TOKEN) is ${token.length === 0 ? "empty" : `${token.length} characters long`}: it must be at least ${MIN_ACCESS_TOKEN_LENGTH}. Leave it unset to get a random one.`
      : "The console's access token (AINTERN_CONSOLE_TOKEN) may hold only letters, digits and -._~+/= (it travels in a cookie and a link). Leave it unset to get a random one.",
  );
}

/** The CSRF token of a console: derived from its access token, so it needs no session state. */
export function csrfTokenFor(accessToken: string): string {
  return createHmac("sha256", accessToken).update("aintern-console-csrf").digest("base64url");
}

/** Compares secrets in constant time. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of cookie `name` in a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The Content-Security-Policy of every page: scripts and styles only from the console itself
 * (no inline script, no inline style, no eval), no framing, forms only to itself.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** Whether `host` (a listen address) is a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Whether a `Host` header (`name[:port]`) names a loopback host. */
export function isLoopbackHostHeader(header: string | null | undefined): boolean {
  if (header === null || header === undefined) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(header.trim());
  return match !== null && isLoopbackHost(match[1]!);
}
