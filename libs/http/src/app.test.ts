import type { Server } from 'node:http';
import { testLogger } from '@crm/testing';
import { createHttpApp } from './app';
import { closeServer, listen, portOf } from './service';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = createHttpApp({
    logger: testLogger('http-app'),
    readiness: {},
    routes: (a) => {
      a.get('/v1/tickets/1', (_req, res) => {
        res.json({ customer: 'ana@example.com' });
      });
      a.get('/v1/oauth/connected', (_req, res) => {
        res.type('html').send('<!doctype html><p>connected</p>');
      });
    },
  });
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  await closeServer(server);
});

describe('security headers', () => {
  it.each(['/v1/tickets/1', '/v1/oauth/connected', '/health/live', '/nowhere'])('%s: may not be framed, sniffed or leak a referrer', async (path) => {
    const res = await fetch(`${base}${path}`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it.each(['/v1/tickets/1', '/v1/oauth/connected', '/v1/nowhere'])('%s (personal data under /v1): Cache-Control no-store', async (path) => {
    expect((await fetch(`${base}${path}`)).headers.get('cache-control')).toBe('no-store');
  });
});
