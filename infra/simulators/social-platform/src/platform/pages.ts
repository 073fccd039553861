import type { Request, Response } from 'express';

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A consent page's policy: its form posts to this host only. Browsers check form-action on
 * every hop of the form's redirect chain (the app's callback, then wherever the app sends the
 * browser), so the approval never redirects across origins: it answers a page that sends the
 * browser on (sendBackToApp), as the platform's own authorize page does.
 */
export const CONSENT_PAGE_POLICY = "default-src 'self'; frame-ancestors 'none'; form-action 'self'";

/** A plain HTML page of the platform's web screens (consent pages, their errors). */
export function page(res: Response, status: number, title: string, body: string, head = ''): void {
  res
    .status(status)
    .type('html')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`);
}

/**
 * After a decision on a consent page, the browser goes back to the app's callback. A browser
 * (one that asks for HTML) gets the platform's "redirecting you back" page: a meta refresh and
 * a link, a new navigation that the consent page's form-action does not govern. A client that
 * drives the flow without a browser gets a 302 to the same address.
 */
export function sendBackToApp(req: Request, res: Response, callback: string): void {
  if (!(req.get('accept') ?? '').includes('text/html')) {
    res.redirect(302, callback);
    return;
  }
  res.set('content-security-policy', CONSENT_PAGE_POLICY);
  const href = escapeHtml(callback);
  page(res, 200, 'Redirecting you back to the application', `<p>This may take a moment. <a href="${href}">Continue to the application</a></p>`, `<meta http-equiv="refresh" content="0;url=${href}">`);
}
