// The short-lived link GET /api/pdf hands out for a completed PDF: signed (HMAC-SHA256, a key of
// its own derived from SECRET_KEY) over the owner, the version and the expiry. The download route
// also requires the owner's session, so a leaked link is useless to anyone else.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_ROUTES } from '@admissions/api-contract';

export const DOWNLOAD_LINK_TTL_MS = 5 * 60_000;

export interface DownloadLinkQuery {
  u: string;
  v: string;
  e: string;
  s: string;
}

function sign(key: Buffer, applicationId: string, version: number, expires: number): Buffer {
  return createHmac('sha256', key)
    .update(`pdf-link.${applicationId}.${version}.${expires}`)
    .digest();
}

/** A same-origin path: `/api/pdf/file?u=…&v=…&e=…&s=…`. */
export function createDownloadLink(
  key: Buffer,
  options: { applicationId: string; version: number; now: Date },
): string {
  const expires = Math.floor((options.now.getTime() + DOWNLOAD_LINK_TTL_MS) / 1000);
  const params = new URLSearchParams({
    u: options.applicationId,
    v: String(options.version),
    e: String(expires),
    s: sign(key, options.applicationId, options.version, expires).toString('base64url'),
  });
  return `${API_ROUTES.applicationPdfFile}?${params.toString()}`;
}

export type DownloadLinkCheck =
  | { ok: true; applicationId: string; version: number }
  | { ok: false; reason: 'signature' | 'expired' };

export function verifyDownloadLink(
  key: Buffer,
  query: DownloadLinkQuery,
  now: Date,
): DownloadLinkCheck {
  const version = Number(query.v);
  const expires = Number(query.e);
  if (!Number.isSafeInteger(version) || !Number.isSafeInteger(expires)) {
    return { ok: false, reason: 'signature' };
  }
  const expected = sign(key, query.u, version, expires);
  const presented = Buffer.from(query.s, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return { ok: false, reason: 'signature' };
  }
  if (Math.floor(now.getTime() / 1000) >= expires) return { ok: false, reason: 'expired' };
  return { ok: true, applicationId: query.u, version };
}
