import {
  BROADCASTS,
  CONSUMPTIONS,
  DEFAULT_RETRY,
  EnvelopeSchema,
  PUBLICATIONS,
  RPC_ROUTES,
  RpcErrorSchema,
  RpcReply,
  SYSTEM_TOPOLOGY,
  type Contract,
  type ExchangeSpec,
  type QueueSpec,
  type RetryPolicy,
  type RpcRoute,
} from '@crm/contracts';
import { Headers } from '../headers';
import { BROKER_DELIVERY_LIMIT, dlqName, requeueExchangeName, delayQueueName } from '../topology';

/**
 * The AsyncAPI 3.0.0 document of the broker, built from the topology (libs/contracts topology.ts),
 * the routes (routes.ts) and the contracts' schemas; `pnpm asyncapi` writes it to
 * docs/asyncapi.yaml and `pnpm check:asyncapi` checks it. Built, never written by hand, so it
 * says what the code does.
 */

type Json = Record<string, unknown>;
type MessageContract = Pick<Contract<unknown>, 'type' | 'schema'>;

const AMQP_BINDING_VERSION = '0.3.0';
const VHOST = '/';

/** A plain JSON copy: drops TypeBox's symbol keys and shares no object, so the YAML has no anchors. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
/** A component or channel key (AsyncAPI allows letters, digits, `_` and `-`). */
const key = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_');
const ref = ($ref: string) => ({ $ref });

const messageKey = (type: string) => key(type);
const replyKey = (route: RpcRoute) => `${key(route.request.type)}__reply`;
const exchangeChannel = (name: string) => `exchange__${key(name)}`;
const queueChannel = (name: string) => `queue__${key(name)}`;
const broadcastChannel = (exchange: string) => `listener__${key(exchange)}`;
const REPLY_CHANNEL = 'rpc-replies';

const channelMessages = (channel: string, keys: string[]) => keys.map((name) => ref(`#/channels/${channel}/messages/${name}`));
const messageRefs = (keys: string[]) => Object.fromEntries(keys.map((name) => [name, ref(`#/components/messages/${name}`)]));
const unique = <T>(items: T[]) => [...new Set(items)];

const HEADERS = {
  type: 'object',
  properties: {
    [Headers.correlationId]: { type: 'string', description: "The envelope's correlationId, for tracing a request through every service." },
    traceparent: { type: 'string', description: 'W3C trace context of the span that published the message (OpenTelemetry, docs/observability.md); absent when tracing is off.' },
    tracestate: { type: 'string', description: 'W3C trace state that travels with traceparent, when there is any.' },
    [Headers.attempts]: { type: 'integer', description: 'Failed attempts so far (set when the consumer sends the message to a retry queue or its DLQ).' },
    [Headers.deferrals]: { type: 'integer', description: 'Times the handler put the message off (RetryLater): not failures.' },
    [Headers.failureReason]: { type: 'string', description: 'Why the last attempt failed (retry queues and DLQs).' },
    [Headers.failedAt]: { type: 'string', description: 'When the message was dead-lettered (DLQs).' },
    [Headers.sourceQueue]: { type: 'string', description: 'The work queue the message failed in (DLQs).' },
    [Headers.originalExchange]: { type: 'string', description: 'The exchange the message was first published to (DLQs).' },
    [Headers.originalRoutingKey]: { type: 'string', description: 'The routing key the message was first published with (DLQs).' },
  },
};

/** The whole AMQP body: the envelope, its `type` fixed and its payload the given schema. */
function envelopeOf(type: string, payload: Json): Json {
  const { $id: _id, ...envelope } = plain(EnvelopeSchema) as Json & { properties: Json };
  return { ...envelope, properties: { ...envelope.properties, type: { const: type }, payload } };
}

function message(type: string, title: string, summary: string, payloadRef: string): Json {
  return {
    name: type,
    title,
    summary,
    contentType: 'application/json',
    correlationId: { location: '$message.payload#/correlationId' },
    headers: ref('#/components/schemas/headers'),
    payload: envelopeOf(type, ref(payloadRef)),
    bindings: { amqp: { messageType: type, bindingVersion: AMQP_BINDING_VERSION } },
  };
}

function summaryOf(contract: MessageContract): string {
  return (contract.schema as { description?: string }).description ?? contract.type;
}

/** Every message type that travels, and the schemas of payloads and RPC results. */
function components(): Json {
  const contracts = new Map<string, MessageContract>();
  for (const contract of [...PUBLICATIONS.flatMap((p) => p.contracts), ...RPC_ROUTES.map((r) => r.request)]) contracts.set(contract.type, contract);
  const messages: Json = {};
  const schemas: Json = { headers: HEADERS };
  for (const contract of contracts.values()) {
    const name = messageKey(contract.type);
    schemas[`${name}__payload`] = plain(contract.schema);
    messages[name] = message(contract.type, contract.type, summaryOf(contract), `#/components/schemas/${name}__payload`);
  }
  for (const route of RPC_ROUTES) {
    const name = replyKey(route);
    schemas[`${name}__payload`] = {
      description: `The answer to ${route.request.type}: its result, or an error.`,
      oneOf: [
        { type: 'object', required: ['ok', 'result'], properties: { ok: { const: true }, result: plain(route.result) } },
        { type: 'object', required: ['ok', 'error'], properties: { ok: { const: false }, error: plain(RpcErrorSchema) } },
      ],
    };
    messages[name] = message(RpcReply.type, `${RpcReply.type} (${route.request.type})`, `The reply to ${route.request.type}.`, `#/components/schemas/${name}__payload`);
  }
  return { messages, schemas };
}

// The AMQP binding knows the standard exchange types only: a plugin's (x-consistent-hash) is named in the description.
const exchangeBinding = (exchange: ExchangeSpec) => ({
  amqp: {
    is: 'routingKey',
    exchange: { name: exchange.name, ...(exchange.type.startsWith('x-') ? {} : { type: exchange.type }), durable: true, autoDelete: false, vhost: VHOST },
    bindingVersion: AMQP_BINDING_VERSION,
  },
});
const queueBinding = (name: string, options: { durable?: boolean; exclusive?: boolean; autoDelete?: boolean } = {}) => ({
  amqp: { is: 'queue', queue: { name, durable: options.durable ?? true, exclusive: options.exclusive ?? false, autoDelete: options.autoDelete ?? false, vhost: VHOST }, bindingVersion: AMQP_BINDING_VERSION },
});

/** The message keys a queue receives. */
function queueMessages(queue: QueueSpec): string[] {
  if (queue.kind === 'rpc') return RPC_ROUTES.filter((route) => route.queue === queue.name).map((route) => messageKey(route.request.type));
  return unique(CONSUMPTIONS.filter((c) => c.queue === queue.name).flatMap((c) => c.contracts.map((contract) => messageKey(contract.type))));
}

/** The message keys published on an exchange (RPC exchanges: the requests of the queues bound to them). */
function exchangeMessages(exchange: string): string[] {
  const published = PUBLICATIONS.filter((p) => p.exchange === exchange).flatMap((p) => p.contracts.map((contract) => messageKey(contract.type)));
  const rpcQueues = SYSTEM_TOPOLOGY.queues.filter((queue) => queue.kind === 'rpc' && queue.bindings?.some((binding) => binding.exchange === exchange));
  return unique([...published, ...rpcQueues.flatMap(queueMessages)]);
}

function exchangeDescription(exchange: ExchangeSpec): string {
  const bound = SYSTEM_TOPOLOGY.queues
    .map((queue) => ({ queue: queue.name, keys: (queue.bindings ?? []).filter((binding) => binding.exchange === exchange.name).map((binding) => `\`${binding.routingKey}\``) }))
    .filter(({ keys }) => keys.length > 0)
    .map(({ queue, keys }) => `\`${queue}\` (${keys.join(', ')})`);
  const routes = PUBLICATIONS.filter((p) => p.exchange === exchange.name).map((p) => `- \`${p.routingKey || '(no routing key)'}\` from ${p.producer}: ${p.summary}`);
  const listeners = BROADCASTS.filter((b) => b.exchange === exchange.name).map((b) => `Every process of ${b.listeners.join(', ')} binds a queue of its own. ${b.summary}`);
  const exchanges = SYSTEM_TOPOLOGY.exchanges
    .filter((other) => other.bindings?.some((binding) => binding.exchange === exchange.name))
    .map((other) => `\`${other.name}\` (${other.bindings!.map((binding) => `\`${binding.routingKey}\``).join(', ')})`);
  const boundExchanges = exchanges.length > 0 ? `Bound exchanges: ${exchanges.join('; ')}.` : '';
  const queues = bound.length > 0 ? `Bound queues: ${bound.join('; ')}.` : listeners.length > 0 || exchanges.length > 0 ? '' : 'No queue of the system is bound to it.';
  const hashed = exchange.type === 'x-consistent-hash' ? ` It hashes the header \`${exchange.arguments?.['hash-header'] ?? ''}\` of each message: the same value always reaches the same queue (each bound with weight 1).` : '';
  return [`A durable ${exchange.type} exchange.${hashed}`, boundExchanges, routes.join('\n'), [...listeners, queues].filter(Boolean).join(' ')].filter(Boolean).join('\n\n');
}

function retryDescription(retry: RetryPolicy): string {
  return `retried after ${retry.delaysMs.join(', ')} ms, the last delay repeating, ${retry.maxAttempts} attempts in all`;
}

/** `exchange` with `key`, `key`; ... */
function bindingsDescription(queue: QueueSpec): string {
  const exchanges = unique((queue.bindings ?? []).map((binding) => binding.exchange));
  return exchanges
    .map((exchange) => `\`${exchange}\` with ${(queue.bindings ?? []).filter((binding) => binding.exchange === exchange).map((binding) => `\`${binding.routingKey}\``).join(', ')}`)
    .join('; ');
}

function queueDescription(queue: QueueSpec): string {
  const bindings = bindingsDescription(queue);
  if (queue.kind === 'rpc') {
    const methods = RPC_ROUTES.filter((route) => route.queue === queue.name).map((route) => `\`${route.request.type}\``);
    return `A durable RPC request queue, bound to ${bindings}. Methods: ${methods.join(', ')}. Each request carries its timeout as expiration and its caller's broker user as userId; the answer goes to the request's replyTo (RabbitMQ direct reply-to) with its correlationId.`;
  }
  if (queue.kind === 'presence') {
    return 'A durable queue nothing is published to: every replica of its service consumes it, so its consumer count is the number of replicas (they share the activity partitions by it).';
  }
  const consumption = CONSUMPTIONS.find((c) => c.queue === queue.name);
  const single = queue.singleActiveConsumer ? ' with a single active consumer (x-single-active-consumer: the others wait, and one takes over when it goes)' : '';
  return [
    `A durable quorum work queue${single}, bound to ${bindings}; read by ${consumption?.consumer ?? 'nobody'}: ${consumption?.summary ?? ''}`,
    `A failed message is retried through \`${requeueExchangeName(queue.name)}\` and the delay queues (${retryDescription(queue.retry ?? DEFAULT_RETRY)}), then dead-lettered to \`${dlqName(queue.name)}\`; one that breaks its contract goes there at once, and the broker moves one delivered ${BROKER_DELIVERY_LIMIT} times without an ack there too.`,
  ].join('\n');
}

/** The requeue exchange, delay queues and DLQ of one work queue. */
function retryChannels(queue: QueueSpec, messages: string[]): Json {
  const channels: Json = {};
  const retry = queue.retry ?? DEFAULT_RETRY;
  const requeue = requeueExchangeName(queue.name);
  const delayQueues = unique(retry.delaysMs).map((delayMs) => ({ delayMs, name: delayQueueName(queue.name, delayMs) }));
  channels[exchangeChannel(requeue)] = {
    address: requeue,
    title: requeue,
    description: `The direct exchange ${queue.name}'s consumer moves failed messages through: routing key a delay queue's name, or \`${dlqName(queue.name)}\`.`,
    messages: messageRefs(messages),
    bindings: exchangeBinding({ name: requeue, type: 'direct' }),
  };
  for (const { delayMs, name } of delayQueues) {
    channels[queueChannel(name)] = {
      address: name,
      title: name,
      description: `Delay queue of \`${queue.name}\`: holds a failed or deferred message ${delayMs} ms (x-message-ttl), then dead-letters it back to \`${queue.name}\` through the default exchange. Nobody consumes it.`,
      messages: messageRefs(messages),
      bindings: queueBinding(name),
    };
  }
  const dlq = dlqName(queue.name);
  channels[queueChannel(dlq)] = {
    address: dlq,
    title: dlq,
    description: `Dead-letter queue of \`${queue.name}\` (quorum): messages that failed every attempt or broke their contract, with the reason in their headers. \`pnpm dlq list|replay ${queue.name}\` inspects and replays them.`,
    messages: messageRefs(messages),
    bindings: queueBinding(dlq),
  };
  return channels;
}

function channels(): Json {
  const all: Json = {};
  for (const exchange of SYSTEM_TOPOLOGY.exchanges) {
    all[exchangeChannel(exchange.name)] = {
      address: exchange.name,
      title: exchange.name,
      description: exchangeDescription(exchange),
      messages: messageRefs(exchangeMessages(exchange.name)),
      bindings: exchangeBinding(exchange),
    };
  }
  for (const queue of SYSTEM_TOPOLOGY.queues) {
    const messages = queueMessages(queue);
    all[queueChannel(queue.name)] = { address: queue.name, title: queue.name, description: queueDescription(queue), messages: messageRefs(messages), bindings: queueBinding(queue.name) };
    if (queue.kind === 'work') Object.assign(all, retryChannels(queue, messages));
  }
  for (const broadcast of BROADCASTS) {
    all[broadcastChannel(broadcast.exchange)] = {
      address: null,
      title: `${broadcast.exchange} listener`,
      description: `A server-named queue of each listening process, bound to \`${broadcast.exchange}\`: exclusive, deleted with its connection, declared again on reconnect.`,
      messages: messageRefs(broadcast.contracts.map((contract) => messageKey(contract.type))),
      bindings: queueBinding('', { durable: false, exclusive: true, autoDelete: true }),
    };
  }
  all[REPLY_CHANNEL] = {
    address: null,
    title: 'RPC replies',
    description:
      "RabbitMQ's direct reply-to (`amq.rabbitmq.reply-to`): the server publishes each answer, not persistent, to the default exchange with the request's replyTo as routing key and its correlationId; the caller matches it to the request by that correlationId.",
    messages: messageRefs(RPC_ROUTES.map(replyKey)),
  };
  return all;
}

/** A routing key without `{name}` parts (and not empty): the one every such message carries. */
const isExactKey = (routingKey: string) => routingKey !== '' && !routingKey.includes('{');

const SEND_BINDING = { deliveryMode: 2, timestamp: true, bindingVersion: AMQP_BINDING_VERSION };
const RECEIVE_BINDING = { ack: true, bindingVersion: AMQP_BINDING_VERSION };

function publishOperations(): Json {
  const operations: Json = {};
  for (const publication of PUBLICATIONS) {
    const channel = exchangeChannel(publication.exchange);
    for (const contract of publication.contracts) {
      operations[`${key(publication.producer)}__sends__${messageKey(contract.type)}`] = {
        action: 'send',
        channel: ref(`#/channels/${channel}`),
        title: `${publication.producer} publishes ${contract.type}`,
        summary: publication.summary,
        description: `Routing key \`${publication.routingKey || '(none)'}\`. ${publication.via === 'outbox' ? 'Written to the transactional outbox with the change, published after the commit.' : 'Published with a confirm.'}`,
        messages: channelMessages(channel, [messageKey(contract.type)]),
        bindings: { amqp: { ...SEND_BINDING, ...(isExactKey(publication.routingKey) ? { cc: [publication.routingKey] } : {}) } },
      };
    }
  }
  return operations;
}

function consumeOperations(): Json {
  const operations: Json = {};
  for (const consumption of CONSUMPTIONS) {
    const queue = SYSTEM_TOPOLOGY.queues.find((candidate) => candidate.name === consumption.queue)!;
    const messages = queueMessages(queue);
    operations[`${key(consumption.consumer)}__reads__${key(consumption.queue)}`] = {
      action: 'receive',
      channel: ref(`#/channels/${queueChannel(consumption.queue)}`),
      title: `${consumption.consumer} reads ${consumption.queue}`,
      summary: consumption.summary,
      description: 'Acked after the handler committed; any other message type is dead-lettered as invalid.',
      messages: channelMessages(queueChannel(consumption.queue), messages),
      bindings: { amqp: RECEIVE_BINDING },
    };
    const requeue = exchangeChannel(requeueExchangeName(consumption.queue));
    operations[`${key(consumption.consumer)}__requeues__${key(consumption.queue)}`] = {
      action: 'send',
      channel: ref(`#/channels/${requeue}`),
      title: `${consumption.consumer} retries or dead-letters from ${consumption.queue}`,
      summary: `A failed message goes to its next delay queue, or to \`${dlqName(consumption.queue)}\` after the last attempt.`,
      messages: channelMessages(requeue, messages),
      bindings: { amqp: SEND_BINDING },
    };
  }
  for (const broadcast of BROADCASTS) {
    for (const listener of broadcast.listeners) {
      operations[`${key(listener)}__hears__${key(broadcast.exchange)}`] = {
        action: 'receive',
        channel: ref(`#/channels/${broadcastChannel(broadcast.exchange)}`),
        title: `${listener} hears ${broadcast.exchange}`,
        summary: broadcast.summary,
        messages: channelMessages(broadcastChannel(broadcast.exchange), broadcast.contracts.map((contract) => messageKey(contract.type))),
        bindings: { amqp: { ack: false, bindingVersion: AMQP_BINDING_VERSION } },
      };
    }
  }
  return operations;
}

function rpcOperations(): Json {
  const operations: Json = {};
  for (const queue of SYSTEM_TOPOLOGY.queues.filter((candidate) => candidate.kind === 'rpc')) {
    const routes = RPC_ROUTES.filter((route) => route.queue === queue.name);
    const server = routes[0]!.server;
    operations[`${key(server)}__answers__${key(queue.name)}`] = {
      action: 'receive',
      channel: ref(`#/channels/${queueChannel(queue.name)}`),
      title: `${server} answers ${queue.name}`,
      summary: 'Answers every request: a result, or an error code (invalid_request, unknown_method, forbidden, its own codes, internal).',
      messages: channelMessages(queueChannel(queue.name), queueMessages(queue)),
      reply: { channel: ref(`#/channels/${REPLY_CHANNEL}`), messages: channelMessages(REPLY_CHANNEL, routes.map(replyKey)) },
    };
    const exchange = exchangeChannel(queue.bindings![0]!.exchange);
    for (const route of routes) {
      for (const caller of route.callers) {
        operations[`${key(caller)}__calls__${messageKey(route.request.type)}`] = {
          action: 'send',
          channel: ref(`#/channels/${exchange}`),
          title: `${caller} calls ${route.request.type}`,
          summary: `Publishes the request with routing key \`${queue.name}\`, replyTo amq.rabbitmq.reply-to and its timeout as expiration, and waits for the reply.`,
          messages: channelMessages(exchange, [messageKey(route.request.type)]),
          reply: { channel: ref(`#/channels/${REPLY_CHANNEL}`), messages: channelMessages(REPLY_CHANNEL, [replyKey(route)]) },
          bindings: { amqp: { cc: [queue.name], deliveryMode: 1, bindingVersion: AMQP_BINDING_VERSION } },
        };
      }
    }
  }
  return operations;
}

export function buildAsyncApiDocument(): Json {
  return plain({
    asyncapi: '3.0.0',
    info: {
      title: 'Support CRM social integrations: broker messages',
      version: '1.0.0',
      description:
        'Every exchange, queue, routing key and message on RabbitMQ. Each message body is a JSON envelope ({id, type, occurredAt, producer, correlationId, payload}) whose payload the contract of its type describes. Generated by `pnpm asyncapi` from libs/contracts (topology.ts, routes.ts and the TypeBox schemas): do not edit by hand.',
    },
    defaultContentType: 'application/json',
    servers: {
      local: {
        host: '127.0.0.1:5672',
        protocol: 'amqp',
        protocolVersion: '0-9-1',
        description: 'The local stack (`pnpm start`); other environments have a broker and vhost of their own, with the same topology.',
      },
    },
    channels: channels(),
    operations: { ...publishOperations(), ...consumeOperations(), ...rpcOperations() },
    components: components(),
  });
}
