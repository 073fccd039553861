import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import { Refusal } from '@crm/http';

/** The routes a CRM may frame: the embedded ticket and the launch link that leads to it. */
export function isEmbedRoute(path: string): boolean {
  return path === '/launch' || path.startsWith('/embed/');
}

/**
 * The Content-Security-Policy of every answer: only our own scripts. Embed routes may be
 * framed by the configured origins (and carry no X-Frame-Options, which would forbid it);
 * every other page by nobody, also told to browsers that know only X-Frame-Options.
 */
export function securityHeaders(frameAncestors: string[], tileUrl: string): RequestHandler {
  // `{s}` (the tile server's subdomains) becomes a wildcard host; the other placeholders are path parts.
  const tileOrigin = tileUrl ? new URL(tileUrl.replace('{s}', 'subdomain-wildcard').replace(/\{[a-z]\}/g, '0')).origin.replace('subdomain-wildcard', '*') : '';
  const policy = (ancestors: string) =>
    [
      "default-src 'self'",
      "script-src 'self'",
      // Mantine and Leaflet set inline styles.
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: ${tileOrigin}`.trim(),
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      `frame-ancestors ${ancestors}`,
    ].join('; ');
  const common = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  const embedded = { ...common, 'content-security-policy': policy(frameAncestors.length ? frameAncestors.join(' ') : "'none'") };
  const unframed = { ...common, 'content-security-policy': policy("'none'"), 'x-frame-options': 'DENY' };
  // Without allowed origins an embed route may not be framed either, and says so to old browsers too.
  const embedHeaders = frameAncestors.length ? embedded : unframed;
  return (req, res, next) => {
    const embed = isEmbedRoute(req.path);
    res.set(embed ? embedHeaders : unframed);
    // Every answer starts with X-Frame-Options DENY (@crm/http): beside frame-ancestors it would forbid what the policy allows.
    if (embed && frameAncestors.length) res.removeHeader('x-frame-options');
    next();
  };
}

/** The built web application, with the single page's index for its own routes. */
export function webRoutes(app: Express, webDir: string): void {
  const index = join(webDir, 'index.html');
  app.use(express.static(webDir, { index: false, maxAge: '1h' }));
  app.get(['/', '/accounts', '/accounts/*rest', '/agents', '/usage', '/inbox', '/tickets/*rest', '/embed/*rest', '/signin'], (_req, res) => {
    if (!existsSync(index)) throw new Refusal('unavailable', 'web_not_built', 'the web application is not built: run `pnpm --filter @crm/console build:web`');
    res.set('cache-control', 'no-store').sendFile(index);
  });
}
