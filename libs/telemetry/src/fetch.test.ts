import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { currentTraceIds, inSpan } from './index';
import { inMemoryTracing } from './testing/in-memory';

let server: Server;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  inMemoryTracing('fetch-test');
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('fetch (the console to the services, ticketing to CRM webhooks)', () => {
  it('sends the trace context of the work that calls, and nothing outside traced work', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const traceId = await inSpan('work', {}, async () => {
      await (await fetch(url)).text();
      return currentTraceIds()!.traceId;
    });
    expect(seen[0]!.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    await (await fetch(url)).text();
    expect(seen[1]!.traceparent).toBeUndefined();
  });
});
