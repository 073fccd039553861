import type { ErrorObject } from 'ajv';

/** One problem of a request body, naming its field. */
export interface FieldError {
  /** Where, as a person writes it: `orderDetail.lineItems[0].quantity`. */
  field: string;
  message: string;
}

function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^[0-9]+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '') || '(body)';
}

const TYPE_NAMES: Record<string, string> = { number: 'a number', string: 'a string', object: 'an object', array: 'an array', boolean: 'true or false' };

/** ajv's errors as field errors a person can act on. */
export function fieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  return (errors ?? []).map((error) => {
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'required':
        return { field: fieldPath(error.instancePath, String(params.missingProperty)), message: 'is required' };
      case 'additionalProperties':
        return { field: fieldPath(error.instancePath, String(params.additionalProperty)), message: 'is not a known field' };
      case 'type':
        return { field: fieldPath(error.instancePath), message: `must be ${TYPE_NAMES[String(params.type)] ?? String(params.type)}` };
      case 'minLength':
        return { field: fieldPath(error.instancePath), message: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters` };
      default:
        return { field: fieldPath(error.instancePath), message: error.message ?? 'is invalid' };
    }
  });
}

/** `a is required; b must be a number`, for the error message. */
export function describeFieldErrors(errors: FieldError[]): string {
  return errors.map((error) => `${error.field} ${error.message}`).join('; ');
}
