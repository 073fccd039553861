import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajv } from './ajv';

export const EnvelopeSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.String({ pattern: '^[a-z][a-zA-Z0-9._-]*\\.v[0-9]+$' }),
    occurredAt: Type.String({ format: 'date-time' }),
    producer: Type.String({ minLength: 1 }),
    correlationId: Type.String({ minLength: 1, maxLength: 200 }),
    payload: Type.Unknown(),
  },
  { $id: 'https://contracts.crm.local/envelope.json', additionalProperties: false },
);

/** Every message on the broker is one of these; `payload` is described by the contract of `type`. */
export type Envelope<P = unknown> = Omit<Static<typeof EnvelopeSchema>, 'payload'> & { payload: P };

const validateEnvelopeShape = ajv.compile(EnvelopeSchema);

/** A message type: its name, the schema its payload must satisfy, and that schema compiled. */
export interface Contract<P> {
  readonly type: string;
  readonly schema: TSchema;
  readonly validatePayload: ValidateFunction<P>;
}

const registry = new Map<string, Contract<unknown>>();

/** Registers a message type; its payload's TypeScript type is the schema's static type, so the two cannot differ. */
export function defineContract<S extends TSchema>(type: string, payloadSchema: S): Contract<Static<S>> {
  if (registry.has(type)) throw new Error(`contract ${type} is defined twice`);
  const contract: Contract<Static<S>> = { type, schema: payloadSchema, validatePayload: ajv.compile<Static<S>>(payloadSchema) };
  registry.set(type, contract as Contract<unknown>);
  return contract;
}

/** Every contract defined so far in this process. */
export function registeredContracts(): Contract<unknown>[] {
  return [...registry.values()];
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
  const envelope = message as Envelope<P>;
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
