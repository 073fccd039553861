import type { Server } from 'node:http';
import request from 'supertest';
import { capturingLogger, waitFor } from '@crm/testing';
import { currentCorrelationId } from '@crm/logging';
import { createHttpApp } from './app';
import { Refusal } from '@crm/contracts';
import { closeServer, listen, portOf } from './service';

class Refused extends Error {}

const { logger, lines } = capturingLogger('hot-routes');
const app = createHttpApp({
  logger,
  readiness: {},
  parseJson: false,
  hotRoutes: [
    {
      method: 'POST',
      path: '/hot/:name',
      successLogLevel: 'debug',
      handle: async (_req, { name = '' }) => {
        if (name === 'refused') throw new Refused('no');
        if (name === 'teapot') throw new Refusal('rate_limited', 'teapot', 'short and stout', { headers: { 'retry-after': '7' } });
        if (name === 'broken') throw new Error('a bug');
        return { status: 201, json: { name, correlationId: currentCorrelationId() } };
      },
      translateError: (error) => (error instanceof Refused ? new Refusal('forbidden', 'refused', 'not this one') : error),
    },
  ],
  routes: (a) => {
    a.get('/hot/:name', (_req, res) => {
      res.json({ served: 'by express' });
    });
  },
});

let server: Server;
let base: string;

beforeAll(async () => {
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  await closeServer(server);
});

const accessLines = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.message === 'request');

describe('hot routes', () => {
  it('answer with the security headers, the request id and the correlation context of every route', async () => {
    const res = await fetch(`${base}/hot/ana%20b?x=1`, { method: 'POST', headers: { 'x-request-id': 'req-1', 'x-correlation-id': 'corr-1' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: 'ana b', correlationId: 'corr-1' });
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('answer errors in the common format, translated by the route, with their headers', async () => {
    const refused = await fetch(`${base}/hot/refused`, { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: 'refused', message: 'not this one' } });
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    const teapot = await fetch(`${base}/hot/teapot`, { method: 'POST' });
    expect([teapot.status, teapot.headers.get('retry-after')]).toEqual([429, '7']);
    const broken = await fetch(`${base}/hot/broken`, { method: 'POST' });
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('internal');
  });

  it('log one access line each (a success at the route level, failures at info or warn) and count in the metrics by template', async () => {
    lines.length = 0;
    await fetch(`${base}/hot/counted`, { method: 'POST' });
    await fetch(`${base}/hot/refused`, { method: 'POST' });
    await fetch(`${base}/hot/broken`, { method: 'POST' });
    // The access line is written once the answer has gone out, which may be after the client has it.
    await waitFor(() => accessLines().length >= 3, { what: 'the three access lines' });
    expect(accessLines().map((line) => [line.level, line.path, line.status])).toEqual([
      ['debug', '/hot/counted', 201],
      ['info', '/hot/refused', 403],
      ['warn', '/hot/broken', 500],
    ]);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/hot\/:name",status="201"\} [1-9]/);
  });

  it('leave other methods and paths to Express', async () => {
    expect(await (await fetch(`${base}/hot/x`)).json()).toEqual({ served: 'by express' });
    expect((await fetch(`${base}/hot/x/y`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/hot/%E0%A4%A`, { method: 'POST' })).status).toBe(400);
  });

  it('are served the same way by a server Express makes itself', async () => {
    const res = await request(app).post('/hot/through-express').set('x-correlation-id', 'corr-2');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'through-express', correlationId: 'corr-2' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((await request(app).post('/hot/refused')).status).toBe(403);
  });
});
