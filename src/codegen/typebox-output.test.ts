import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { compiledCode, splitCompiled, SUPPORTED_TYPEBOX_LINE } from './typebox-output.js';
import { dependencyPackage } from '../own-package.js';

describe('the TypeBox output adapter', () => {
  it('is used with the TypeBox line it parses', () => {
    expect(dependencyPackage('@sinclair/typebox').manifest.version.startsWith(SUPPORTED_TYPEBOX_LINE)).toBe(true);
  });

  it('splits compiled code into variables, named checks and the final check', () => {
    const item = Type.Object({ id: Type.String({ pattern: '^a' }) }, { $id: 'T0' });
    const code = compiledCode(Type.Array(Type.Ref('T0')), [item], 'javascript');
    const parts = splitCompiled(code);
    expect(parts.functions.map((f) => f.name)).toEqual(['check_T0']);
    expect(parts.variables.map((v) => v.name)).toEqual(['local_0']);
    expect(parts.check.startsWith('function check(value)')).toBe(true);
  });

  it('refuses output of another shape, by name', () => {
    expect(() => splitCompiled('let x = 1')).toThrow('unexpected TypeBox compiler output: let x = 1');
    expect(() => splitCompiled('const local_0 = 1')).toThrow('TypeBox compiler output has no check function');
  });
});
