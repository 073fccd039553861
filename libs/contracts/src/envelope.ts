import type { ErrorObject, JSONSchemaType, ValidateFunction } from 'ajv';
import { ajv } from './ajv';

/** Every message on the broker is one of these; `payload` is described by the contract of `type`. */
export interface Envelope<P = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  producer: string;
  correlationId: string;
  payload: P;
}

const envelopeSchema = {
  $id: 'https://contracts.crm.local/envelope.json',
  type: 'object',
  required: ['id', 'type', 'occurredAt', 'producer', 'correlationId', 'payload'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 200 },
    type: { type: 'string', pattern: '^[a-z][a-zA-Z0-9._-]*\\.v[0-9]+$' },
    occurredAt: { type: 'string', format: 'date-time' },
    producer: { type: 'string', minLength: 1 },
    correlationId: { type: 'string', minLength: 1, maxLength: 200 },
    payload: {},
  },
} as const;

const validateEnvelopeShape = ajv.compile(envelopeSchema);

/** A message type: its name and the schema its payload must satisfy. */
export interface Contract<P> {
  readonly type: string;
  readonly validatePayload: ValidateFunction<P>;
}

const registry = new Map<string, Contract<unknown>>();

export function defineContract<P>(type: string, payloadSchema: JSONSchemaType<P> | Record<string, unknown>): Contract<P> {
  if (registry.has(type)) throw new Error(`contract ${type} is defined twice`);
  const contract: Contract<P> = { type, validatePayload: ajv.compile<P>(payloadSchema as JSONSchemaType<P>) };
  registry.set(type, contract as Contract<unknown>);
  return contract;
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(details.length ? `${message}: ${details.join('; ')}` : message);
  }
}

export function describeErrors(errors: ErrorObject[] | null | undefined, root = ''): string[] {
  return (errors ?? []).map((error) => {
    const where = `${root}${error.instancePath}` || '(root)';
    const extra = error.keyword === 'additionalProperties' ? ` '${(error.params as { additionalProperty: string }).additionalProperty}'` : '';
    return `${where} ${error.message ?? 'is invalid'}${extra}`;
  });
}

/**
 * Checks a message against the envelope schema and the payload schema of its type.
 * Throws ContractViolation naming every problem; returns the typed envelope otherwise.
 */
export function validateEnvelope<P = unknown>(message: unknown, expected?: Contract<P>): Envelope<P> {
  if (!validateEnvelopeShape(message)) {
    throw new ContractViolation('not a valid envelope', describeErrors(validateEnvelopeShape.errors));
  }
  const envelope = message as unknown as Envelope<P>;
  const contract = registry.get(envelope.type);
  if (!contract) throw new ContractViolation(`unknown message type '${envelope.type}'`);
  if (expected && expected.type !== envelope.type) {
    throw new ContractViolation(`expected a '${expected.type}' message, got '${envelope.type}'`);
  }
  if (!contract.validatePayload(envelope.payload)) {
    throw new ContractViolation(`invalid ${envelope.type} payload`, describeErrors(contract.validatePayload.errors, '/payload'));
  }
  return envelope;
}

