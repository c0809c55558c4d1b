import type { UnpluginContext } from 'unplugin';
import { describe, expect, it } from 'vitest';
import { compileIdlSource, IdlModuleError } from '../codegen/idl-module.js';
import { reportIdlError } from './report-error.js';

const BROKEN = 'namespace shop\n\nstruct Cart {\n    items []Item\n    total flaot\n}\n';

function brokenModule(): IdlModuleError {
  try {
    compileIdlSource(BROKEN, '/app/shop.idl');
  } catch (error) {
    if (error instanceof IdlModuleError) return error;
    throw error;
  }
  throw new Error('the IDL compiled');
}

/** What the plugin hands to `this.error` for `framework`. */
function reported(framework: 'vite' | 'rollup' | 'webpack') {
  let received: unknown;
  const context = { error: (error: unknown) => void (received = error) } as unknown as UnpluginContext;
  reportIdlError(context, brokenModule(), framework);
  return received as Error & { id: string; loc: { file: string; line: number; column: number }; frame?: string };
}

describe('reportIdlError', () => {
  it('Vite: the location names the column of the message, the frame starts with its first line number, the stack is a string', () => {
    const error = reported('vite');
    expect(error).toBeInstanceOf(Error);
    // Vite's module runner prints `${message}\n${stack}`: an undefined stack printed "undefined".
    expect(error.stack).toBe('');
    expect(error.message).toContain('/app/shop.idl:4:13:');
    expect(error.loc).toEqual({ file: '/app/shop.idl', line: 4, column: 13 });
    expect(error.frame).toBe(error.frame!.trim());
    expect(error.frame!.split('\n')[0]).toMatch(/^2 \|$/);
  });

  it('Rollup: 0-based column, the marked frame; webpack: the frame inside the message', () => {
    const rollup = reported('rollup');
    expect(rollup.loc.column).toBe(12);
    expect(rollup.frame).toContain('> 4 |     items []Item');
    const webpack = reported('webpack');
    expect(webpack.frame).toBeUndefined();
    expect(webpack.message).toContain('> 4 |     items []Item');
  });
});
