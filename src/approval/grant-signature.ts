import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { PermissionGrant } from "./permission-grant.js";

/** What a grant's signature covers: everything that decides which calls it lets run. */
function signedText(grant: PermissionGrant, nonce: string): string {
  return JSON.stringify([
    nonce,
    grant.toolId.toLowerCase(),
    grant.scope,
    grant.sessionId ?? null,
    grant.pattern ?? null,
    grant.patternKind ?? null,
    grant.maxRiskLevel,
    grant.workspacePath ?? null,
    grant.createdAt.getTime(),
    grant.expiresAt?.getTime() ?? null,
  ]);
}

function mac(key: Uint8Array, text: string): string {
  return createHmac("sha256", key).update(text).digest("base64url");
}

/**
 * A new id for `grant` that carries its signature under `key`: `<uuid>.<HMAC-SHA256>` of the
 * uuid and every field that decides which calls the grant lets run. A store holds its grants as
 * rows anyone who can write the store's file could add (a repository that ships
 * `.aintern/audit.db`, or a write-ahead log beside it); only a grant made with the key, which
 * stays in the user's `$AINTERN_HOME`, is honoured ({@link isSignedGrant}).
 */
export function signedGrantId(key: Uint8Array, grant: Omit<PermissionGrant, "id">): string {
  const nonce = randomUUID();
  return `${nonce}.${mac(key, signedText({ ...grant, id: "" }, nonce))}`;
}

/** Whether `grant` was made with `key` and none of its deciding fields changed since. */
export function isSignedGrant(key: Uint8Array, grant: PermissionGrant): boolean {
  const dot = grant.id.indexOf(".");
  if (dot <= 0) return false;
  const given = Buffer.from(grant.id.slice(dot + 1));
  const expected = Buffer.from(mac(key, signedText(grant, grant.id.slice(0, dot))));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
