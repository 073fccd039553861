/**
 * Query strings and JSON bodies reach routes with NUL and lone surrogates replaced, so a
 * route that stores or looks up what it was sent answers 200, not 500.
 */
import request from 'supertest';
import { databaseServerUrl, testLogger, testPool } from '@crm/testing';
import { createHttpApp } from './app';

const database = testPool(databaseServerUrl(), { max: 2 });

afterAll(() => database.end());

function echoApp() {
  return createHttpApp({
    logger: testLogger(),
    readiness: {},

    routes: (app) => {
      app.get('/echo', async (req, res) => {
        res.json({ stored: (await database.query<{ t: string }>('SELECT $1::text AS t', [req.query.q])).rows[0]!.t });
      });
      app.post('/echo', async (req, res) => {
        const body = req.body as { text: string };
        res.json({ stored: (await database.query<{ t: string }>('SELECT $1::text AS t', [body.text])).rows[0]!.t, raw: req.rawBody?.toString('utf8') });
      });
    },
  });
}

it('cleans query strings and JSON bodies (the raw bytes stay as sent)', async () => {
  const app = echoApp();
  const query = await request(app).get('/echo?q=a%00b%ED%A0%80c');
  expect(query.status).toBe(200);
  expect(query.body.stored).toBe('a\uFFFDb\uFFFD\uFFFD\uFFFDc');
  const body = await request(app).post('/echo').set('content-type', 'application/json').send('{"text":"x\\u0000y\\ud800z"}');
  expect(body.status).toBe(200);
  expect(body.body.stored).toBe('x\uFFFDy\uFFFDz');
  expect(body.body.raw).toBe('{"text":"x\\u0000y\\ud800z"}');
});

it('keeps text as sent when told to (the platform simulator plays the outside world)', async () => {
  const app = createHttpApp({
    logger: testLogger(),
    readiness: {},
    cleanText: false,
    routes: (a) => a.post('/keep', (req, res) => void res.json({ nul: (req.body as { text: string }).text.includes('\u0000') })),
  });
  expect((await request(app).post('/keep').set('content-type', 'application/json').send('{"text":"x\\u0000"}')).body).toEqual({ nul: true });
});

it('refuses a JSON body nested deeper than the limit with 400, before anything walks it', async () => {
  const deep = `{"text":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const answer = await request(echoApp()).post('/echo').set('content-type', 'application/json').send(deep);
  expect(answer.status).toBe(400);
  expect(answer.body.error.code).toBe('too_deep');
});
