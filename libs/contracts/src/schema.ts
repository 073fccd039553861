import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * Small TypeBox builders for shapes the contracts repeat. Each one emits a single plain JSON
 * Schema keyword where TypeBox's own would emit a union, so ajv's messages stay short
 * ("must be equal to one of the allowed values") and the AsyncAPI document stays readable.
 */

/** A string that is one of `values`, typed as their union. */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** `schema` or null, as one `type` list: its other keywords (pattern, format, bounds) still apply when the value is not null. */
export function Nullable<S extends TSchema>(schema: S): TUnsafe<Static<S> | null> {
  if (typeof schema.type !== 'string') throw new Error('Nullable takes a schema with one type');
  return Type.Unsafe<Static<S> | null>({ ...schema, type: [schema.type, 'null'] });
}

/** Any JSON object, its contents not constrained (a platform's own record, carried as received). */
export function AnyObject(options: SchemaOptions = {}): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object' });
}
