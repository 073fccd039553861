import axios from 'axios';
import { freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { readConfig } from './config';
import { startTracking, type RunningService } from './service';

let db: TestDatabase;
let vhost: TestVirtualHost;
let service: RunningService;

beforeAll(async () => {
  [db, vhost] = await Promise.all([freshDatabase('tracking'), freshVirtualHost('tracking')]);
  service = await startTracking(readConfig({ NODE_ENV: 'test', PORT: '0', AMQP_URL: vhost.url, DATABASE_URL: db.url }), { logger: testLogger('tracking') });
});

afterAll(async () => {
  await service.stop();
  await Promise.all([db.drop(), vhost.drop()]);
});

it('reports ready once connected to the broker and its database', async () => {
  const ready = await waitFor(async () => {
    const res = await axios.get(`http://127.0.0.1:${service.port}/health/ready`, { validateStatus: () => true });
    return res.status === 200 ? res.data : null;
  });
  expect(ready).toEqual({ status: 'ready', checks: { broker: true, database: true } });
});
