/**
 * `createMockHandlers`: handler objects for every method of an IDL that answer with mock values
 * (docs/mock.md), for `createRpcServer` in tests, for MSW (runtime/mock/msw.ts) and for the plugin's mock
 * mode. The same method and params under the same seed give the same answer; every answer passes
 * the method's result validation (a value that would not is made again without `@example`s, and
 * failing that, the call answers a clear Internal error naming what could not be met).
 */
import { RpcError } from '../errors.js';
import type { IdlJson, IdlJsonInterface, IdlJsonMethod } from '../idl-json.js';
import { qualifiedMethodName } from '../schema.js';
import { compileValidators, formatPath, type Validator } from '../validation.js';
import { requestedMockError } from './mock-error.js';
import { type MockValueContext, MockTypes } from './mock-values.js';
import { MockValueError } from './scalar-values.js';
import { hashText, SeededRandom } from './seeded-random.js';

/** The options of `createMockHandlers`. */
export interface MockOptions {
  /** Same seed, same answers (for the same method and params). Default `'idlrpc'`. */
  seed?: string | number;
  /** Only these interfaces get mock handlers (an unknown name throws). Default: every interface. */
  interfaces?: readonly string[];
  /**
   * Honour the `x-idlrpc-mock-error: <ErrorName>` request header (docs/mock.md). Default true.
   */
  errorHeader?: boolean;
  /** How many items a stream method yields. Default 3. */
  streamItems?: number;
}

/** A mock handler object per interface, as `createRpcServer`'s `handlers` takes them. */
export type MockHandlers = Record<string, Record<string, (...args: unknown[]) => unknown>>;

const INTERNAL_ERROR = -32603;
const DAY_MS = 86_400_000;
/** Base times fall in the year after this date, one per seed. */
const BASE_TIME_EPOCH = Date.UTC(2026, 0, 1);

/** The moment mock timestamps are made near: derived from the seed (never the clock), so answers repeat. */
export function mockBaseTime(seed: string | number): number {
  const hash = hashText(`base-time\0${seed}`);
  return BASE_TIME_EPOCH + (hash % 365) * DAY_MS + (hash % 86_400) * 1000;
}

/** Handler objects answering every method of the IDL's interfaces (or of `options.interfaces`) with mock values. */
export function createMockHandlers(idl: IdlJson, options: MockOptions = {}): MockHandlers {
  const seed = String(options.seed ?? 'idlrpc');
  const baseTime = mockBaseTime(seed);
  const types = new MockTypes(idl);
  const validators = compileValidators(idl);
  const handlers: MockHandlers = {};
  for (const iface of mockedInterfaces(idl, options.interfaces)) {
    const methods: Record<string, (...args: unknown[]) => unknown> = {};
    for (const method of iface.methods ?? []) {
      const name = qualifiedMethodName(iface, method);
      const result = new MockResult(types, method, name, validators[name]?.result, seed, baseTime);
      const count = method.parameters?.length ?? 0;
      methods[method.name] = (...args: unknown[]) => {
        const params = args.slice(0, count);
        const context = args[count] as { headers?: Record<string, string> } | undefined;
        const error = options.errorHeader === false ? undefined : requestedMockError(idl, name, method, context?.headers);
        if (error) throw error;
        if (!method.stream) return result.make(params, 0);
        return streamOf(result, params, options.streamItems ?? 3);
      };
    }
    handlers[iface.name] = methods;
  }
  return handlers;
}

/** The interfaces to mock; a name the IDL does not have is refused, listing those it has. */
function mockedInterfaces(idl: IdlJson, names: readonly string[] | undefined): IdlJsonInterface[] {
  const all = idl.interfaces ?? [];
  if (names === undefined) return all;
  const unknown = names.filter((name) => !all.some((iface) => iface.name === name));
  if (unknown.length > 0) {
    throw new Error(`mock: the IDL has no interface ${unknown.join(', ')} (it has ${all.map((i) => i.name).join(', ') || 'none'})`);
  }
  return all.filter((iface) => names.includes(iface.name));
}

async function* streamOf(result: MockResult, params: unknown[], count: number): AsyncGenerator<unknown> {
  for (let index = 0; index < count; index++) yield result.make(params, index);
}

/** Makes the results of one method. */
class MockResult {
  constructor(
    private readonly types: MockTypes,
    private readonly method: IdlJsonMethod,
    private readonly name: string,
    private readonly validator: Validator | undefined,
    private readonly seed: string,
    private readonly baseTime: number,
  ) {}

  /** The result of a call with these params (`index`: which item of a stream). */
  make(params: unknown[], index: number): unknown {
    const key = `${this.seed}\0${this.name}\0${stableText(params)}\0${index}`;
    let problem = '';
    for (const useExamples of [true, false]) {
      const context: MockValueContext = {
        random: new SeededRandom(key),
        baseTime: this.baseTime,
        useExamples,
        echo: useExamples ? echoOf(this.method, params) : new Map(),
        made: 0,
      };
      let value: unknown;
      try {
        value = this.value(context, index);
      } catch (error) {
        if (!(error instanceof MockValueError)) throw error;
        problem = error.message;
        continue;
      }
      if (this.validator === undefined || this.validator.check(value)) return value;
      problem = this.validator
        .errors(value)
        .map((issue) => `${formatPath(['result', ...issue.path])}: ${issue.message}`)
        .join('; ');
    }
    throw new RpcError(INTERNAL_ERROR, `Internal error: mock cannot make a valid result of ${this.name}: ${problem}`);
  }

  private value(context: MockValueContext, index: number): unknown {
    const { method } = this;
    const examples = method.examples;
    // A stream's examples are its items, in order.
    if (context.useExamples && examples !== undefined && examples.length > 0) {
      return structuredClone(method.stream ? examples[index % examples.length] : context.random.pick(examples));
    }
    return this.types.value(method.returnType, { name: '', constraints: method.returnConstraints }, context);
  }
}

/**
 * The call's values a result field of the same name takes: each parameter, and the fields of a
 * parameter that is an object (`addToCart(request)` echoes `request.cartId`).
 */
function echoOf(method: IdlJsonMethod, params: unknown[]): Map<string, unknown> {
  const echo = new Map<string, unknown>();
  for (const [index, parameter] of (method.parameters ?? []).entries()) {
    const value = params[index];
    if (typeof value === 'string' || typeof value === 'number') echo.set(parameter.name, value);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [field, fieldValue] of Object.entries(value)) {
        if ((typeof fieldValue === 'string' || typeof fieldValue === 'number') && !echo.has(field)) echo.set(field, fieldValue);
      }
    }
  }
  return echo;
}

/** The params as text for the seed: JSON, with `Date`s and bytes written out (never throws). */
function stableText(params: unknown[]): string {
  try {
    return JSON.stringify(params, (_key, value: unknown) => (value instanceof Uint8Array ? Array.from(value) : value)) ?? '';
  } catch {
    return String(params.length);
  }
}
