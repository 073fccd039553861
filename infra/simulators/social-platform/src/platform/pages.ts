import type { Response } from 'express';

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A consent page's policy: its form posts to this host, which redirects to the app's callback
 * and on (another origin), so `form-action 'self'` (every answer's default) would stop a
 * browser there, as the platform's own page does not.
 */
export const CONSENT_PAGE_POLICY = "default-src 'self'; frame-ancestors 'none'; form-action 'self' http: https:";

/** A plain HTML page of the platform's web screens (consent pages, their errors). */
export function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .type('html')
    .send(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`);
}
