import { BROADCASTS, CONSUMPTIONS, PUBLICATIONS, registeredContracts, RPC_ROUTES, RpcReply, SYSTEM_TOPOLOGY } from './index';

const exchangeOf = (name: string) => SYSTEM_TOPOLOGY.exchanges.find((exchange) => exchange.name === name);
const queueOf = (name: string) => SYSTEM_TOPOLOGY.queues.find((queue) => queue.name === name);

/** A `{name}` segment of a route's key stands for any word. */
function topicMatches(pattern: string[], key: string[]): boolean {
  if (pattern.length === 0) return key.length === 0;
  const [head, ...rest] = pattern;
  if (head === '#') return topicMatches(rest, key) || (key.length > 0 && topicMatches(pattern, key.slice(1)));
  if (key.length === 0) return false;
  const word = key[0]!;
  return (head === '*' || head === word || word.startsWith('{')) && topicMatches(rest, key.slice(1));
}

/** Whether a binding with `bindingKey` on an exchange of `type` can receive a message published with `routingKey`. */
function bindingReceives(type: string, bindingKey: string, routingKey: string): boolean {
  // A consistent-hash exchange routes on a hash (of the account header here), never on the routing key: every message reaches one of its queues.
  if (type === 'fanout' || type === 'x-consistent-hash') return true;
  if (type === 'direct') return bindingKey === routingKey || /^\{[^}]+\}$/.test(routingKey);
  return topicMatches(bindingKey.split('.'), routingKey.split('.'));
}

describe('message routes', () => {
  it('give every contract of libs/contracts a route', () => {
    const routed = new Set([
      ...PUBLICATIONS.flatMap((publication) => publication.contracts.map((contract) => contract.type)),
      ...RPC_ROUTES.map((route) => route.request.type),
      RpcReply.type,
    ]);
    expect(registeredContracts().map((contract) => contract.type).filter((type) => !routed.has(type))).toEqual([]);
  });

  it('publish only on exchanges of the topology', () => {
    expect(PUBLICATIONS.filter((publication) => !exchangeOf(publication.exchange)).map((publication) => publication.exchange)).toEqual([]);
    expect(BROADCASTS.map((broadcast) => exchangeOf(broadcast.exchange)?.type)).toEqual(BROADCASTS.map(() => 'fanout'));
  });

  it('give every queue of the topology one reader', () => {
    const work = SYSTEM_TOPOLOGY.queues.filter((queue) => queue.kind === 'work').map((queue) => queue.name);
    const rpc = SYSTEM_TOPOLOGY.queues.filter((queue) => queue.kind === 'rpc').map((queue) => queue.name);
    expect(CONSUMPTIONS.map((consumption) => consumption.queue).sort()).toEqual([...work].sort());
    expect([...new Set(RPC_ROUTES.map((route) => route.queue))].sort()).toEqual([...rpc].sort());
  });

  /** Whether a message published on `exchange` with `routingKey` reaches a binding of the queue, directly or through exchange-to-exchange bindings. */
  function reachesQueue(bindings: { exchange: string; routingKey: string }[], exchange: string, routingKey: string, seen = new Set<string>()): boolean {
    if (seen.has(exchange)) return false;
    seen.add(exchange);
    const type = exchangeOf(exchange)!.type;
    if (bindings.some((binding) => binding.exchange === exchange && bindingReceives(type, binding.routingKey, routingKey))) return true;
    return SYSTEM_TOPOLOGY.exchanges.some(
      (destination) =>
        (destination.bindings ?? []).some((binding) => binding.exchange === exchange && bindingReceives(type, binding.routingKey, routingKey)) &&
        reachesQueue(bindings, destination.name, routingKey, seen),
    );
  }

  it.each(CONSUMPTIONS.map((consumption) => [consumption.queue, consumption] as const))('bring to %s every message type it accepts', (_queue, consumption) => {
    const bindings = queueOf(consumption.queue)?.bindings ?? [];
    for (const contract of consumption.contracts) {
      const reaching = PUBLICATIONS.filter(
        (publication) =>
          publication.contracts.includes(contract) && reachesQueue(bindings, publication.exchange, publication.routingKey),
      );
      expect({ type: contract.type, reaching: reaching.length > 0 }).toEqual({ type: contract.type, reaching: true });
    }
  });

  it('send RPC requests to queues their exchange is bound to', () => {
    for (const route of RPC_ROUTES) expect(queueOf(route.queue)).toMatchObject({ kind: 'rpc', bindings: [{ routingKey: route.queue }] });
  });
});
