/**
 * The web app's typed client (web/src/client.ts) as the browser uses it, against a stand-in for
 * the console server's /api relay: paths go to the relay, writes carry the CSRF token and their
 * whole body, failures become ApiErrors with the service's message and fields.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join, relative } from 'node:path';
import createClient from 'openapi-fetch';
import { closeServer, portOf } from '@crm/http';
import { ApiError, setCsrfToken, viaConsole } from '../web/src/api';
import { done, ok } from '../web/src/client';
import type { paths as ConsolePaths } from '../web/src/generated/console';
import type { paths } from '../web/src/generated/ticketing';

interface Seen {
  method: string;
  url: string;
  csrf: string | undefined;
  body: string;
}

let server: Server;
const seen: Seen[] = [];
const ticketId = '00000000-0000-4000-8000-000000000001';

const bodyOf = (req: IncomingMessage) => new Promise<string>((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
});

beforeAll(async () => {
  server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      seen.push({ method: req.method!, url: req.url!, csrf: req.headers['x-csrf-token'] as string | undefined, body });
      res.setHeader('content-type', 'application/json');
      if (req.url!.startsWith('/api/tickets?')) return res.end(JSON.stringify({ items: [], nextCursor: null }));
      if (req.url === '/api/accounts') return res.end(JSON.stringify({ items: [] }));
      if (req.url === '/api/session' && req.method === 'DELETE') return res.writeHead(204).end();
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { code: 'invalid_change', message: 'priority must be one of low, normal, high, urgent', fields: [{ in: 'body', field: 'priority', message: 'must be one of low, normal, high, urgent' }] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(() => closeServer(server));

const client = () => createClient<paths>({ baseUrl: `http://127.0.0.1:${portOf(server)}`, fetch: viaConsole });
const consoleClient = () => createClient<ConsolePaths>({ baseUrl: `http://127.0.0.1:${portOf(server)}`, fetch: viaConsole });

describe('the typed client', () => {
  it("reads through the relay's path with the query as the service's document types it", async () => {
    const page = await ok(client().GET('/v1/tickets', { params: { query: { status: 'open,pending', assignee: 'me', breached: true, limit: 50 } } }));
    expect(page).toEqual({ items: [], nextCursor: null });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/tickets?status=open%2Cpending&assignee=me&breached=true&limit=50', csrf: undefined });
  });

  it("asks for one customer's tickets with ticketing's contact filter", async () => {
    await ok(client().GET('/v1/tickets', { params: { query: { accountId: '1001', contactId: ticketId, limit: 21 } } }));
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: `/api/tickets?accountId=1001&contactId=${ticketId}&limit=21` });
  });

  it("calls the console server's own routes by their own paths, a write with the CSRF token", async () => {
    setCsrfToken('csrf-456');
    expect(await ok(consoleClient().GET('/api/accounts'))).toEqual({ items: [] });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/accounts', csrf: undefined });
    await done(consoleClient().DELETE('/api/session'));
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/session', csrf: 'csrf-456' });
  });

  it('writes with the CSRF token and the whole body, and a refusal is an ApiError with its fields', async () => {
    setCsrfToken('csrf-123');
    const refused = ok(client().PATCH('/v1/tickets/{id}', { params: { path: { id: ticketId } }, body: { priority: 'high', tags: ['vip'] } }));
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'invalid_change', message: 'priority must be one of low, normal, high, urgent', fields: [{ field: 'priority' }] });
    expect(seen.at(-1)).toEqual({ method: 'PATCH', url: `/api/tickets/${ticketId}`, csrf: 'csrf-123', body: '{"priority":"high","tags":["vip"]}' });
  });
});

/** Every source file of the web app but the generated types, by its path under web/src. */
function webSources(dir = join(__dirname, '..', 'web', 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : webSources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("the web app's calls", () => {
  it("all go through the typed clients: no fetch, and no /api path outside a consoleApi call, but in the transport, the event stream, the composer's writes by path and the usage CSV's link", () => {
    const root = join(__dirname, '..', 'web', 'src');
    // api.ts is the typed clients' transport; live.tsx opens the event stream; the composer writes by path through useAction's run;
    // usage/api.ts makes the usage CSV's address for a download link (the browser fetches the file, no script reads it).
    const allowed = new Set(['api.ts', 'live.tsx', join('components', 'Composer.tsx'), join('usage', 'api.ts')]);
    const untyped: string[] = [];
    for (const file of webSources()) {
      const name = relative(root, file);
      if (allowed.has(name)) continue;
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      if (/\bfetch\(|new EventSource\(/.test(code)) untyped.push(`${name}: fetch or EventSource`);
      for (const match of code.matchAll(/['"`]\/api\//g)) {
        if (!/consoleApi\.(GET|POST|PUT|PATCH|DELETE)\($/.test(code.slice(0, match.index))) untyped.push(`${name}: ${code.slice(match.index, match.index + 40)}`);
      }
    }
    expect(untyped).toEqual([]);
  });
});
