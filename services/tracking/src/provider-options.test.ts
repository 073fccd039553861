import { startStack, type TrackingStack } from './testing/stack';

/** The provider's configurable parts: the name of the extra-fields parameter, and a create by POST. */

let stack: TrackingStack;

beforeAll(async () => {
  stack = await startStack({
    env: { TRACKING_INCLUDE_PARAM: 'fields', TRACKING_CREATE_METHOD: 'POST', TRACKING_CREATE_PATH: '/v1/client/{clientId}/task' },
  });
  await stack.enableClient('acme', ['orderDetail']);
});

afterAll(async () => {
  await stack?.stop();
});

const requestsTo = async (path: string) => ((await stack.sim.get('/control/requests')).data.items as { method: string; path: string; query: Record<string, string>; body: string }[]).filter((r) => r.path === path);

it('sends the extra field groups in the configured parameter', async () => {
  await stack.simTask({ clientId: 'acme', taskId: 'opt-1' });
  expect((await stack.api.get('/v1/clients/acme/tasks/opt-1?include=statusUpdates')).status).toBe(200);
  const [sent] = await requestsTo('/v1/client/acme/task/opt-1');
  expect(sent!.query).toEqual({ fields: 'orderDetail,statusUpdates' });
});

it('creates by POST with the task id in the body; a repeat finds the existing task instead of a second one', async () => {
  const body = { taskId: 'opt-create', assignedUser: { carrierClientId: 'c', userId: 'u' }, sourceOrderId: 'o-9' };
  const first = await stack.api.post('/v1/clients/acme/tasks', body);
  expect(first.status).toBe(201);
  expect(first.data).toMatchObject({ taskId: 'opt-create', created: true, task: { taskId: 'opt-create' } });
  const again = await stack.api.post('/v1/clients/acme/tasks', body);
  expect(again.status).toBe(200);
  expect(again.data).toMatchObject({ taskId: 'opt-create', created: false, task: { taskId: 'opt-create', sourceOrderId: 'o-9' } });
  const posts = await requestsTo('/v1/client/acme/task');
  expect(posts).toHaveLength(2);
  expect(JSON.parse(posts[0]!.body)).toMatchObject({ taskId: 'opt-create' });
});
