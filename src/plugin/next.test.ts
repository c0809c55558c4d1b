import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withIdlRpc, type WebpackConfigShape } from './next.js';

describe('withIdlRpc', () => {
  it('adds the .idl rule for Turbopack and keeps the rules and settings of the config', () => {
    const config = withIdlRpc({ reactStrictMode: true, turbopack: { rules: { '*.svg': { loaders: ['svg-loader'] } } } }, { dts: false });
    expect(config.reactStrictMode).toBe(true);
    expect(config.turbopack?.rules?.['*.svg']).toEqual({ loaders: ['svg-loader'] });
    const rule = config.turbopack?.rules?.['*.idl'] as { loaders: { loader: string; options: unknown }[]; as: string };
    expect(rule.as).toBe('*.js');
    expect(rule.loaders[0].options).toEqual({ plugin: { dts: false }, distDir: '.next' });
  });

  it('adds the loader as a webpack rule, then runs the config own webpack function', () => {
    const seen: unknown[] = [];
    const config = withIdlRpc({
      distDir: 'out',
      webpack: (webpackConfig: WebpackConfigShape) => {
        seen.push(webpackConfig.module?.rules?.length);
        return { ...webpackConfig, marked: true };
      },
    });
    const result = config.webpack?.({ module: { rules: [{ test: /\.css$/ }] } }, {});
    expect(seen).toEqual([2]);
    expect(result?.marked).toBe(true);
    const rule = result?.module?.rules?.[1] as { test: RegExp; use: { loader: string; options: { distDir: string } }[] };
    expect(rule.test.test('src/checkout.idl')).toBe(true);
    expect(rule.use[0].options.distDir).toBe('out');
  });

  it('runs the config own runAfterProductionCompile hook after writing the documents', async () => {
    const calls: string[] = [];
    const config = withIdlRpc({ compiler: { runAfterProductionCompile: async ({ distDir }) => void calls.push(distDir) } });
    await config.compiler?.runAfterProductionCompile?.({ projectDir: '/nonexistent-project', distDir: '.next' });
    expect(calls).toEqual(['.next']);
  });

  it('refuses bad options when the config is made, before any build', () => {
    expect(() => withIdlRpc({}, { openapi: { version: '2.0' as '3.1' } })).toThrow(/openapi.version must be/);
  });
});

it('points Turbopack and webpack at the built loader file', () => {
  const rule = withIdlRpc({}).turbopack?.rules?.['*.idl'] as { loaders: { loader: string }[] };
  expect(rule.loaders[0].loader).toMatch(/next-idl-loader\.js$/);
  expect(existsSync(rule.loaders[0].loader.replace(/\.js$/, '.ts')) || existsSync(rule.loaders[0].loader)).toBe(true);
});
