/**
 * Test helper: the changes between two IDL texts (files in memory), as the check reports them.
 */
import { checkBreaking, contractFromModel, type BreakingCheckInput, type BreakingReport } from '../../src/breaking/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { memoryHost } from '../idl/memory-host.js';

/** Compiles `text` as `fileName` with `imports` in memory. */
export function compileText(text: string, fileName = 'api.idl', imports: Record<string, string> = {}) {
  return compileIdl(text, fileName, { host: memoryHost(imports) });
}

/** The report of comparing `before` with `after` (both as api.idl), with its directives. */
export function compareTexts(
  before: string,
  after: string,
  options: Omit<BreakingCheckInput, 'before' | 'after' | 'sources'> & { imports?: Record<string, string> } = {},
): BreakingReport {
  const oldModel = compileText(before, 'old/api.idl');
  const newModel = compileText(after, 'api.idl', options.imports);
  return checkBreaking({
    ...options,
    before: contractFromModel(oldModel),
    after: contractFromModel(newModel),
    sources: new Map([['api.idl', after]]),
  });
}

/** `rule level` of each change, sorted: what the table test compares. */
export function ruleLevels(report: BreakingReport): string[] {
  return report.changes.map((change) => `${change.rule} ${change.level}`).sort();
}
