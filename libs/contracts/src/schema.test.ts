import { Type, type Static } from '@sinclair/typebox';
import { ajv } from './ajv';
import { describeErrors } from './envelope';
import { AnyObject, Nullable, StringEnum } from './schema';

const Example = Type.Object(
  { id: Nullable(Type.String({ pattern: '^[0-9]+$' })), mode: StringEnum(['public', 'private']), raw: AnyObject() },
  { additionalProperties: false },
);
const validate = ajv.compile(Example);
const problems = (value: unknown) => (validate(value) ? [] : describeErrors(validate.errors));

// The static type is what the schema says: these assignments fail to compile if it drifts.
const typed: Static<typeof Example> = { id: null, mode: 'private', raw: { any: 'thing' } };
// @ts-expect-error a mode outside the enum is not of the type
const wrongMode: Static<typeof Example> = { id: '1', mode: 'secret', raw: {} };

describe('schema builders', () => {
  it('accept what their static type allows', () => {
    expect(problems(typed)).toEqual([]);
    expect(problems({ id: '42', mode: 'public', raw: {} })).toEqual([]);
  });

  it('keep a nullable value to its other keywords', () => {
    expect(problems({ id: 'abc', mode: 'public', raw: {} })).toEqual(['/id must match pattern "^[0-9]+$"']);
    expect(problems({ id: 42, mode: 'public', raw: {} })).toEqual(['/id must be string,null']);
  });

  it('name the allowed values of an enum in one message', () => {
    expect(problems(wrongMode)).toEqual(['/mode must be equal to one of the allowed values']);
  });

  it('refuse a nullable of a schema without one type', () => {
    expect(() => Nullable(Type.Union([Type.String(), Type.Number()]))).toThrow('Nullable takes a schema with one type');
  });
});
