import { request } from 'node:http';
import { Queues, SYSTEM_TOPOLOGY, TrackingLiveRequest, TrackingTaskRequest } from '@crm/contracts';
import { Broker, RpcClient } from '@crm/messaging';
import { testLogger } from '@crm/testing';
import { ProviderClient } from './adapters/provider-client';
import { startStack, TOKEN, type TrackingStack } from './testing/stack';

let stack: TrackingStack;
let apiKey: string;
const demo = () => ({ clientId: 'demo', enabled: true, apiKey, include: [] });
const providerRequests = async () => ((await stack.sim.get('/control/requests')).data as { items: { path: string }[] }).items.map((r) => r.path);

/** Sends the path exactly as written: HTTP clients built on WHATWG URLs would resolve `%2e%2e` themselves. */
function raw(method: string, path: string, body?: unknown): Promise<{ status: number; data: { error: { code: string } } }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: stack.service.port, method, path, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, data: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

beforeAll(async () => {
  stack = await startStack();
  apiKey = await stack.enableClient('demo');
  await stack.simTask({ clientId: 'demo', taskId: 'real-1' });
});

afterAll(async () => {
  await stack.stop();
});

describe('ids that are dot segments never reach the provider', () => {
  it.each(['%2e%2e', '%2E%2E', '..', '%2e', '.', '..%2f', '.hidden', '-1'])('GET /v1/clients/demo/tasks/%s: 400, no provider call', async (taskId) => {
    const before = await providerRequests();
    for (const path of [`/v1/clients/demo/tasks/${taskId}`, `/v1/clients/demo/tasks/${taskId}/live`]) {
      const res = await raw('GET', path);
      expect(res.status).toBe(400);
      expect(res.data.error.code).toBe('invalid_parameter');
    }
    expect(await providerRequests()).toEqual(before);
  });

  it.each(['%2e%2e', '..', '%2e', '.x'])('a client id %s: 400 on every route, no provider call', async (clientId) => {
    const before = await providerRequests();
    expect((await raw('PUT', `/v1/clients/${clientId}`, { enabled: true, apiKey: 'k' })).status).toBe(400);
    expect((await raw('GET', `/v1/clients/${clientId}`)).status).toBe(400);
    expect((await raw('GET', `/v1/clients/${clientId}/tasks/real-1`)).status).toBe(400);
    expect((await raw('POST', `/v1/clients/${clientId}/tasks`, { taskId: 'x-1' })).status).toBe(400);
    expect(await providerRequests()).toEqual(before);
  });

  it('over tracking.rpc too', async () => {
    const broker = new Broker({ url: stack.amqpUrl, name: 'traversal-rpc', logger: testLogger() });
    const rpc = new RpcClient(broker, 'ticketing', SYSTEM_TOPOLOGY);
    try {
      const before = await providerRequests();
      await expect(rpc.call(Queues.trackingRpc, TrackingTaskRequest, { clientId: 'demo', taskId: '..' }, { timeoutMs: 10_000 })).rejects.toThrow(/taskId/);
      await expect(rpc.call(Queues.trackingRpc, TrackingLiveRequest, { clientId: '..', taskId: 'real-1' }, { timeoutMs: 10_000 })).rejects.toThrow(/clientId/);
      expect(await providerRequests()).toEqual(before);
    } finally {
      await rpc.close();
      await broker.close();
    }
  });

  it('the provider client itself refuses dot segments and encodes every other character', async () => {
    const provider = new ProviderClient({
      baseUrl: stack.simUrl,
      includeParam: 'include',
      createMethod: 'PUT',
      createPath: '/v1/client/{clientId}/mpmdtask/{taskId}',
      timeoutMs: 2_000,
      readRetries: 0,
      retryDelayMs: 1,
      logger: testLogger(),
    });
    const before = await providerRequests();
    await expect(provider.getTask(demo(), '..', [])).rejects.toThrow(/dot segment/);
    await expect(provider.getTask({ ...demo(), clientId: '.' }, 'real-1', [])).rejects.toThrow(/dot segment/);
    await expect(provider.createTask(demo(), '..', { taskId: '..' })).rejects.toThrow(/dot segment/);
    expect(await providerRequests()).toEqual(before);
    await expect(provider.getTask(demo(), 'a/../b', [])).rejects.toMatchObject({ code: 'task_not_found' });
    expect((await providerRequests())[0]).toBe('/v1/client/demo/task/a%2F..%2Fb');
  });
});
