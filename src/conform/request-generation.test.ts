import { describe, expect, it } from 'vitest';
import { compileValidators } from '../../runtime/validation.js';
import { compileIdl } from '../idl/compile.js';
import { toIdlJson } from '../idl/json.js';
import { indexIdl } from './idl-index.js';
import { argumentsAreValid, type MethodUnderTest } from './method-under-test.js';
import { Random } from './random.js';
import { invalidArguments, validArguments } from './request-generation.js';
import { generateValue } from './value-generation.js';

const idl = toIdlJson(
  compileIdl(
    `namespace shop
enum Size {
    small
    large
}
struct Card {
    number   string  [minLength=4, maxLength=19]
    expires  timestamp
}
struct Transfer {
    iban  string  [format="email"]
}
union Payment {
    card      Card
    transfer  Transfer
}
struct Line extends Base {
    qty    int       [min=1, max=99]
    price  float     [exclusiveMin=0, multipleOf=0.25]
    tags   []string  [optional, maxItems=3, maxLength=5]
    size   Size
    at     date
    blob   bytes
    extra  json
    next   Line      [optional]
}
struct Base {
    id  string  [format="uuid"]
}
interface Shop {
    put(line Line, pay Payment, many []int [minItems=2, maxItems=4, min=-3, max=3], note string [optional]) bool
}
`,
    'shop.idl',
  ),
);
const validators = compileValidators(idl);
const put: MethodUnderTest = {
  name: 'Shop.put',
  iface: idl.interfaces![0],
  method: idl.interfaces![0].methods![0],
  validators: validators['Shop.put'],
  contract: '',
  declaredErrors: new Map(),
};

describe('request generation', () => {
  it("draws values that meet the types and constraints directly (the validators' filter is a safety net, not the generator)", () => {
    const context = { index: indexIdl(idl), random: new Random(9), size: 0 };
    const parameters = put.method.parameters!;
    for (let i = 0; i < 300; i++) {
      context.size = i % 11;
      parameters.forEach((parameter, p) => {
        const value = generateValue(parameter.type, parameter.constraints, context);
        expect(put.validators.params[p].errors(value), JSON.stringify(value)).toEqual([]);
      });
    }
  });

  it('valid arguments are valid, invalid ones are refused, and the same seed gives the same requests', () => {
    const draw = (seed: number) => {
      const context = { index: indexIdl(idl), random: new Random(seed), size: 5 };
      const requests: unknown[] = [];
      for (let i = 0; i < 100; i++) {
        const valid = validArguments(put, context)!;
        expect(argumentsAreValid(put, valid)).toBe(true);
        const invalid = invalidArguments(put, valid, context)!;
        expect(argumentsAreValid(put, invalid.args), invalid.mutation).toBe(false);
        requests.push(valid, invalid.args);
      }
      return JSON.stringify(requests);
    };
    expect(draw(3)).toBe(draw(3));
    expect(draw(3)).not.toBe(draw(4));
  });
});
