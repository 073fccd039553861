import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { closeServer, listen } from '@crm/http';
import { crcResponse, isPlausibleCrcToken, SIGNATURE_HEADER, verifySignature } from '@crm/webhook-signature';

/** What a test webhook received: the exact bytes and whether their signature checked out. */
export interface Received {
  raw: Buffer;
  signatureHeader: string | undefined;
  signatureValid: boolean;
}

export interface TestReceiver {
  url: string;
  received: Received[];
  close: () => Promise<void>;
}

/**
 * A minimal webhook for tests, doing what webhook-ingest must: answers the CRC (or, with
 * `crc: 'wrong'`, answers it with another secret) and verifies signatures over the raw bytes.
 */
export async function startReceiver(secret: string, { crc = 'right' }: { crc?: 'right' | 'wrong' } = {}): Promise<TestReceiver> {
  const received: Received[] = [];
  const app = express();
  app.get('/webhooks/test', (req, res) => {
    const token = req.query.crc_token;
    if (!isPlausibleCrcToken(token)) {
      res.status(400).json({ error: { code: 'invalid_crc_token', message: 'bad token' } });
      return;
    }
    res.json(crcResponse(crc === 'right' ? secret : `${secret}-other`, token));
  });
  app.post('/webhooks/test', express.raw({ type: () => true, limit: '1mb' }), (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signatureHeader = req.get(SIGNATURE_HEADER);
    const signatureValid = verifySignature(secret, raw, signatureHeader);
    received.push({ raw, signatureHeader, signatureValid });
    if (!signatureValid) {
      res.status(401).json({ error: { code: 'invalid_signature', message: 'signature does not match' } });
      return;
    }
    res.json({ accepted: true });
  });
  const server: Server = await listen(app, 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks/test`, received, close: () => closeServer(server) };
}

/** A URL on which nothing listens (a port that was free a moment ago). */
export async function deadUrl(): Promise<string> {
  const server = await listen(express(), 0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return `http://127.0.0.1:${port}/webhooks/test`;
}
