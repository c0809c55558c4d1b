/**
 * Validation speed: the validators our server runs (compiled ahead of time by the code generator)
 * against Ajv with compiled, hand-written JSON Schemas of the same rules, on valid and invalid
 * checkout payloads. Interleaved rounds, median operations per second.
 */
import { createRequire } from 'node:module';
import { checkoutJsonSchemas, validationCases } from '../lib/checkout.mjs';
import { median, opsPerSecond } from '../lib/stats.mjs';
import { importGeneratedIdl, loadOurValidatorTable } from '../lib/ours.mjs';
import { constraintCases } from '../lib/constraints.mjs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');

/** Two Ajv instances, as a user would configure them: first error only, or every error. */
function ajvValidators() {
  const make = (allErrors) => {
    const ajv = new Ajv({ allErrors, allowUnionTypes: true });
    const definitions = checkoutJsonSchemas;
    return (testCase) => {
      const target = testCase.result
        ? { anyOf: [{ $ref: `#/definitions/${testCase.type}` }, { type: 'null' }] }
        : { $ref: `#/definitions/${testCase.type}` };
      return ajv.compile({ definitions, ...target });
    };
  };
  return { firstError: make(false), allErrors: make(true) };
}

/** Returns table rows and which validators "ours" were. */
export async function runValidationSuite(options) {
  const { table, source } = await loadOurValidatorTable();
  const ajv = ajvValidators();
  const comparisons = await constraintComparisons();
  for (const testCase of validationCases) {
    const methodValidators = table[testCase.method];
    if (!methodValidators) throw new Error(`our validator table has no ${testCase.method}`);
    const ours = testCase.result ? methodValidators.result : methodValidators.params[testCase.param];
    const ajvFirst = ajv.firstError(testCase);
    const ajvAll = ajv.allErrors(testCase);
    // A benchmark of validators that disagree about the payload would compare different work.
    if (ours.check(testCase.value) !== testCase.valid || ajvFirst(testCase.value) !== testCase.valid) {
      throw new Error(`validators disagree about "${testCase.name}" (expected valid=${testCase.valid})`);
    }
    const value = testCase.value;
    if (testCase.valid) {
      comparisons.push({ metric: `validate ${testCase.name}`, ours: () => ours.check(value), peer: () => ajvFirst(value) });
    } else {
      if (ours.errors(value).length < 2 || ajvAll(value) || ajvAll.errors.length < 2) {
        throw new Error(`"${testCase.name}" should give several problems with both validators`);
      }
      comparisons.push({ metric: `reject ${testCase.name} (yes/no)`, ours: () => ours.check(value), peer: () => ajvFirst(value) });
      comparisons.push({
        metric: `reject ${testCase.name} with every problem listed`,
        ours: () => !ours.check(value) && ours.errors(value).length > 0,
        peer: () => !ajvAll(value) && ajvAll.errors.length > 0,
      });
    }
  }
  const rows = [];
  for (const comparison of comparisons) {
    const samples = { ours: [], peer: [] };
    // Untimed first runs let the JIT optimise both sides before anything counts.
    opsPerSecond(comparison.ours, options.budgetMs);
    opsPerSecond(comparison.peer, options.budgetMs);
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours'];
      for (const side of order) samples[side].push(opsPerSecond(comparison[side], options.budgetMs));
    }
    rows.push({
      group: 'validation',
      metric: comparison.metric,
      unit: 'ops/s',
      ours: median(samples.ours),
      peerName: 'Ajv',
      peer: median(samples.peer),
      higherIsBetter: true,
    });
  }
  return { rows, info: { validators: source } };
}

/**
 * Attribute-list constraints (numbers, string lengths, pattern, formats, array bounds): our generated
 * validator against Ajv (draft 2020-12, `ajv/dist/2020`, formats from ajv-formats) on the same rules,
 * `allErrors` off for yes/no, on for the lists of problems.
 */
async function constraintComparisons() {
  const { idl, jsonSchema, valid, invalid } = constraintCases;
  const module = await importGeneratedIdl('constraints', idl);
  const ours = module.validators['Bench.signup'].params[0];
  const Ajv2020 = require('ajv/dist/2020').default;
  const addFormats = require('ajv-formats').default ?? require('ajv-formats');
  const make = (allErrors) => {
    const ajv = new Ajv2020({ allErrors });
    addFormats(ajv);
    return ajv.compile(jsonSchema);
  };
  const [ajvFirst, ajvAll] = [make(false), make(true)];
  if (!ours.check(valid) || !ajvFirst(valid)) throw new Error('validators disagree about the valid constrained signup');
  if (ours.check(invalid) || ajvFirst(invalid)) throw new Error('validators disagree about the invalid constrained signup');
  const ourProblems = ours.errors(invalid).length;
  ajvAll(invalid);
  if (ourProblems !== ajvAll.errors.length) {
    throw new Error(`the invalid constrained signup has ${ourProblems} problems for us, ${ajvAll.errors.length} for Ajv`);
  }
  return [
    { metric: 'validate signup with constraints', ours: () => ours.check(valid), peer: () => ajvFirst(valid) },
    { metric: 'reject signup with constraints (yes/no)', ours: () => ours.check(invalid), peer: () => ajvFirst(invalid) },
    {
      metric: 'reject signup with constraints with every problem listed',
      ours: () => !ours.check(invalid) && ours.errors(invalid).length > 0,
      peer: () => !ajvAll(invalid) && ajvAll.errors.length > 0,
    },
  ];
}
