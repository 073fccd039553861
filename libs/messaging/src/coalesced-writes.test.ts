import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { freshVirtualHost, testLogger, waitFor } from '@crm/testing';
import { Broker } from './broker';
import { coalesceWrites } from './coalesced-writes';

let server: Server;
let received: Buffer[][];

beforeAll(async () => {
  received = [];
  server = createServer((peer) => {
    const chunks: Buffer[] = [];
    received.push(chunks);
    peer.on('data', (chunk: Buffer) => chunks.push(chunk));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterAll(async () => {
  server.close();
});

async function connected(): Promise<Socket> {
  const socket = connect((server.address() as { port: number }).port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  return socket;
}

describe('coalesceWrites', () => {
  it('sends the frames written in one tick in one write, and later ones after', async () => {
    const socket = await connected();
    coalesceWrites({ connection: { stream: socket } });
    const writev = jest.spyOn(socket as unknown as { _writev: () => void }, '_writev');
    const write = jest.spyOn(socket as unknown as { _write: () => void }, '_write');
    for (const frame of ['one,', 'two,', 'three,']) socket.write(frame);
    expect(socket.writableCorked).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(socket.writableCorked).toBe(0);
    expect([writev.mock.calls.length, write.mock.calls.length]).toEqual([1, 0]);
    socket.write('four');
    await waitFor(() => Buffer.concat(received.at(-1)!).toString().endsWith('four'), { what: 'the server to receive the later frame' });
    expect(Buffer.concat(received.at(-1)!).toString()).toBe('one,two,three,four');
    socket.destroy();
  });

  it("finds the socket of a broker connection (amqplib's, as amqp-connection-manager hands it over)", async () => {
    const vhost = await freshVirtualHost('coalesced-writes');
    const broker = new Broker({ url: vhost.url, name: 'coalesced-writes-test', logger: testLogger('coalesced-writes') });
    try {
      await broker.waitUntilConnected(10_000);
      const socket = (broker.connection.connection as unknown as { connection: { stream: Socket } }).connection.stream;
      expect(socket.write.name).toBe('corkedUntilTheTickEnds');
    } finally {
      await broker.close();
      await vhost.drop();
    }
  });

  it('leaves a connection whose socket it cannot find as it is', () => {
    expect(() => coalesceWrites({ connection: {} })).not.toThrow();
    expect(() => coalesceWrites(undefined)).not.toThrow();
  });
});
