/**
 * The constrained payload of the validation suite: one IDL struct with every kind of checked
 * constraint, the JSON Schema (draft 2020-12) of the same rules for Ajv, a valid value and an invalid
 * one that breaks one rule of each kind.
 */
const idl = `namespace bench

struct Signup {
    name    string   [minLength=2, maxLength=40]
    handle  string   [maxLength=20, pattern="^[a-z][a-z0-9_]*$"]
    email   string   [format="email"]
    site    string   [format="uri"]
    id      string   [format="uuid"]
    ip      string   [format="ipv4"]
    age     int      [min=13, max=130]
    score   float    [exclusiveMin=0, max=100]
    tags    []string [minItems=1, maxItems=5, maxLength=12]
}

interface Bench {
    signup(signup Signup) bool
}
`;

const jsonSchema = {
  type: 'object',
  required: ['name', 'handle', 'email', 'site', 'id', 'ip', 'age', 'score', 'tags'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 40 },
    handle: { type: 'string', maxLength: 20, pattern: '^[a-z][a-z0-9_]*$' },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    id: { type: 'string', format: 'uuid' },
    ip: { type: 'string', format: 'ipv4' },
    age: { type: 'integer', minimum: 13, maximum: 130 },
    score: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
    tags: { type: 'array', minItems: 1, maxItems: 5, items: { type: 'string', maxLength: 12 } },
  },
};

const valid = {
  name: 'Ada Lovelace',
  handle: 'ada_1815',
  email: 'ada@example.com',
  site: 'https://example.com/ada?lang=en',
  id: '123e4567-e89b-12d3-a456-426614174000',
  ip: '192.168.10.1',
  age: 36,
  score: 99.5,
  tags: ['math', 'engines'],
};

const invalid = {
  name: 'A',
  handle: '1ada',
  email: 'ada',
  site: 'example',
  id: 'not-a-uuid',
  ip: '300.1.1.1',
  age: 7,
  score: 0,
  tags: [],
};

export const constraintCases = { idl, jsonSchema, valid, invalid };
