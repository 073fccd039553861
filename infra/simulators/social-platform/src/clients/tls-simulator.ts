/** The simulator served over TLS for tests with real clients, which call the platform's HTTPS hosts. */
import { createServer, Agent, type AgentOptions, type RequestOptions, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect, type ConnectionOptions } from 'node:tls';
import { generate } from 'selfsigned';
import { closeServer, portOf } from '@crm/http';
import { testLogger } from '@crm/testing';
import { createSimulatorApp } from '../app';
import { loadSimulatorConfig } from '../config';

/** Every connection, whatever host it names, goes to the simulator (the TLS server name is kept): a hosts-file entry. */
class SimulatorAgent extends Agent {
  constructor(
    private readonly port: number,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: RequestOptions): Duplex {
    return connect({ ...(options as ConnectionOptions), host: '127.0.0.1', port: this.port });
  }
}

export interface TlsSimulator {
  /** The agent a client uses: connects the platform's host names to the simulator and trusts its certificate. */
  agent: Agent;
  /** The certificate (PEM), for clients that take a CA file. */
  cert: string;
  port: number;
  close: () => Promise<void>;
}

/** Starts the simulator on TLS with a certificate made now for `hosts`. */
export async function startTlsSimulator(settings: Record<string, string>, hosts = ['api.x.com', 'upload.x.com', 'x.com']): Promise<TlsSimulator> {
  const config = loadSimulatorConfig({ SOCIAL_ENV_NAME: 'test', WEBHOOK_URL: 'http://127.0.0.1:9/none', ...settings });
  const pems = await generate([{ name: 'commonName', value: hosts[0]! }], { keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: hosts.map((value) => ({ type: 2 as const, value })) }] });
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, createSimulatorApp({ config, logger: testLogger('sim') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = portOf(server);
  return { agent: new SimulatorAgent(port, { ca: pems.cert }), cert: pems.cert, port, close: () => closeServer(server) };
}
