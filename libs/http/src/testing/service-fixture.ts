/** A service for service.test.ts, run in a child process; FIXTURE_MODE picks how its start goes. */
import { appendFileSync } from 'node:fs';
import express from 'express';
import { ConfigError } from '@crm/config';
import { closeServer, listen, portOf, runService } from '../index';

const mode = process.env.FIXTURE_MODE;

void runService({
  name: 'fixture',
  readConfig: () => {
    if (mode === 'bad-config') throw new ConfigError('fixture: FIXTURE_TOKEN is missing; FIXTURE_PORT must be a port number');
    return { LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: 2_000 };
  },
  start: async () => {
    if (mode === 'bad-start') throw new Error('the database is not there');
    const app = express();
    app.get('/health/live', (_req, res) => void res.json({ ok: true }));
    const server = await listen(app, 0, '127.0.0.1');
    return {
      port: portOf(server),
      stopSteps: [
        async () => appendFileSync(process.env.FIXTURE_STOPS!, 'consumers\n'),
        async () => {
          await closeServer(server);
          appendFileSync(process.env.FIXTURE_STOPS!, 'http\n');
        },
      ],
    };
  },
});
