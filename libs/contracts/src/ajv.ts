import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** One ajv instance for every contract: strict schemas, all errors reported. */
export const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
