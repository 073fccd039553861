import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type RequestHandler } from 'express';

/** The Content-Security-Policy of every answer: only our own scripts; framing only by the configured origins. */
export function securityHeaders(frameAncestors: string[], tileUrl: string): RequestHandler {
  // `{s}` (the tile server's subdomains) becomes a wildcard host; the other placeholders are path parts.
  const tileOrigin = tileUrl ? new URL(tileUrl.replace('{s}', 'subdomain-wildcard').replace(/\{[a-z]\}/g, '0')).origin.replace('subdomain-wildcard', '*') : '';
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine and Leaflet set inline styles.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: ${tileOrigin}`.trim(),
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
  return (_req, res, next) => {
    res.set({ 'content-security-policy': policy, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
    next();
  };
}

/** The built web application, with the single page's index for its own routes. */
export function webRoutes(app: Express, webDir: string): void {
  const index = join(webDir, 'index.html');
  app.use(express.static(webDir, { index: false, maxAge: '1h' }));
  app.get(['/', '/accounts', '/accounts/*rest', '/inbox', '/tickets/*rest', '/embed/*rest', '/signin'], (_req, res) => {
    if (!existsSync(index)) {
      res.status(503).json({ error: { code: 'web_not_built', message: 'the web application is not built: run `pnpm --filter @crm/console build:web`' } });
      return;
    }
    res.set('cache-control', 'no-store').sendFile(index);
  });
}
