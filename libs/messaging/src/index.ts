export { Broker, brokerUser, brokerUrls, type BrokerOptions } from './broker';
export { declareTopology, declareRetryQueues, requeueExchangeName, type TopologyMode } from './topology';
export { Publisher, PublishError, makeEnvelope, type EnvelopeOptions } from './publisher';
export { Consumer, PermanentFailure, RetryLater, DEFAULT_MAX_DEFERRALS, type ConsumerOptions, type MessageHandler, type MessageContext } from './consumer';
export { ConsumerGroup } from './consumer-group';
export { ReplicaPresence } from './presence';
export { RpcServer, RpcClient, RpcError, RpcTimeout, rpcMethod, type RpcMethod } from './rpc';
export { listActivityDeadLetters, listDeadLetters, replayDeadLetters, UnknownQueue, type DeadLetter } from './dead-letters';
export { OutboxAnnouncer, OutboxRelay, enqueueOutbox, insertOutboxFrom, outboxTraceContext, type OutboxRelayDeps, type OutboxRow } from './outbox';
