import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUBLICATIONS, RPC_ROUTES, SYSTEM_TOPOLOGY, Queues } from '@crm/contracts';
import { parse } from 'yaml';
import { dlqName, delayQueueName } from '../topology';
import { ASYNCAPI_PATH, checkUpToDate, renderAsyncApi, validateAsyncApi } from './check';
import { buildAsyncApiDocument } from './document';

interface Channel {
  address: string | null;
  messages: Record<string, { $ref: string }>;
}
const document = buildAsyncApiDocument() as { channels: Record<string, Channel>; components: { messages: Record<string, { name: string }> } };
const channelAt = (address: string) => Object.values(document.channels).find((channel) => channel.address === address);
const messageNames = (channel: Channel | undefined) =>
  Object.values(channel?.messages ?? {}).map(({ $ref }) => document.components.messages[$ref.split('/').pop()!]!.name);

describe('docs/asyncapi.yaml', () => {
  it('is what the generator makes from the contracts and the topology now', () => {
    expect(checkUpToDate()).toEqual([]);
  });

  it('is reported stale when it differs from the generated document', () => {
    const stale = join(mkdtempSync(join(tmpdir(), 'asyncapi-')), 'asyncapi.yaml');
    writeFileSync(stale, renderAsyncApi().replace('social.activity.raw.v1', 'social.activity.raw.v2'));
    expect(checkUpToDate(stale)).toEqual([expect.stringContaining('run pnpm asyncapi')]);
  });

  it('parses and validates with @asyncapi/parser, without errors', async () => {
    const { errors } = await validateAsyncApi(readFileSync(ASYNCAPI_PATH, 'utf8'));
    expect(errors).toEqual([]);
  });

  it('fails validation when the document breaks the specification', async () => {
    const broken = renderAsyncApi().replace(/action: receive/g, 'action: listen');
    const { errors } = await validateAsyncApi(broken);
    expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/action.*must be equal to one of the allowed values/)]));
  });
});

describe('the AsyncAPI document', () => {
  it('has a channel for every exchange and queue, and every work queue its delay queues and DLQ', () => {
    for (const exchange of SYSTEM_TOPOLOGY.exchanges) expect(channelAt(exchange.name)).toBeDefined();
    for (const queue of SYSTEM_TOPOLOGY.queues) {
      expect(channelAt(queue.name)).toBeDefined();
      if (queue.kind !== 'work') continue;
      expect(channelAt(dlqName(queue.name))).toBeDefined();
      for (const delayMs of queue.retry!.delaysMs) expect(channelAt(delayQueueName(queue.name, delayMs))).toBeDefined();
    }
  });

  it('puts every published message on its exchange and every RPC request on its queue', () => {
    for (const publication of PUBLICATIONS) {
      expect(messageNames(channelAt(publication.exchange))).toEqual(expect.arrayContaining(publication.contracts.map((contract) => contract.type)));
    }
    for (const route of RPC_ROUTES) expect(messageNames(channelAt(route.queue))).toContain(route.request.type);
  });

  it("lists what a queue's consumer accepts", () => {
    expect(messageNames(channelAt(Queues.ticketingAccountEvents)).sort()).toEqual([
      'account.connected.v1',
      'account.disconnected.v1',
      'account.needs-reconnect.v1',
      'account.revoked.v1',
      'webhook.invalid.v1',
    ]);
  });

  it('renders as YAML that reads back to the same document', () => {
    expect(parse(renderAsyncApi())).toEqual(document);
  });
});
