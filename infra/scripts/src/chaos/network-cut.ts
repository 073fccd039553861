/**
 * A real cut between one service and the broker and database: the service runs in a network
 * namespace of its own joined to the machine by a veth pair, and the cut takes the link down
 * (its packets go nowhere, no connection is closed: the broker notices only when heartbeats
 * stop, PostgreSQL not until the link is back). The cluster's servers listen on 127.0.0.1 only,
 * so the machine's end of the link relays their ports (a TCP relay per port, in this process);
 * the relay is on the machine's side of the cut.
 */
import { execFile } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ip = (...args: string[]) => run('ip', args);

export interface NetworkCut {
  namespace: string;
  /** The machine's address as the namespace sees it. */
  hostAddress: string;
  /** The namespace's address as the machine sees it. */
  innerAddress: string;
  cut: () => Promise<void>;
  restore: () => Promise<void>;
  remove: () => Promise<void>;
}

/** Relays hostAddress:port to 127.0.0.1:port for each port; the sockets it holds go into `sockets`. */
function relay(hostAddress: string, ports: number[], sockets: Set<Socket>): Promise<Server[]> {
  return Promise.all(
    ports.map(
      (port) =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer((inbound) => {
            const outbound = connect(port, '127.0.0.1');
            for (const socket of [inbound, outbound]) {
              sockets.add(socket);
              socket.on('close', () => sockets.delete(socket));
              socket.on('error', () => {
                inbound.destroy();
                outbound.destroy();
              });
            }
            inbound.pipe(outbound).pipe(inbound);
          });
          server.once('error', reject);
          server.listen(port, hostAddress, () => resolve(server));
        }),
    ),
  );
}

export async function networkCut(name: string, ports: number[], subnet = '10.231.7'): Promise<NetworkCut> {
  const [hostSide, innerSide] = [`${name}-h`, `${name}-n`];
  const [hostAddress, innerAddress] = [`${subnet}.1`, `${subnet}.2`];
  await ip('netns', 'del', name).catch(() => undefined);
  await ip('link', 'del', hostSide).catch(() => undefined);
  await ip('netns', 'add', name);
  await ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', innerSide);
  await ip('link', 'set', innerSide, 'netns', name);
  await ip('addr', 'add', `${hostAddress}/30`, 'dev', hostSide);
  await ip('link', 'set', hostSide, 'up');
  await ip('-n', name, 'addr', 'add', `${innerAddress}/30`, 'dev', innerSide);
  await ip('-n', name, 'link', 'set', innerSide, 'up');
  await ip('-n', name, 'link', 'set', 'lo', 'up');
  const sockets = new Set<Socket>();
  const servers = await relay(hostAddress, ports, sockets);
  return {
    namespace: name,
    hostAddress,
    innerAddress,
    cut: async () => void (await ip('link', 'set', hostSide, 'down')),
    restore: async () => void (await ip('link', 'set', hostSide, 'up')),
    remove: async () => {
      const closed = Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      for (const socket of sockets) socket.destroy();
      await closed;
      await ip('link', 'del', hostSide).catch(() => undefined);
      await ip('netns', 'del', name).catch(() => undefined);
    },
  };
}
