/**
 * The anchor of the ingest benchmark: a bare Express 5 app that reads the same body as raw
 * bytes and answers 200 with the same JSON as webhook-ingest, and nothing else (no signature,
 * no broker). Run by bench.ts as a process of its own on PORT.
 */
import express from 'express';

const app = express();
app.post('/webhooks/:envName', express.raw({ type: () => true, limit: '1mb' }), (_req, res) => {
  res.status(200).json({ accepted: true });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
