/**
 * `missing-namespace`: a file starts with its namespace.
 */
import type { SourceSpan } from '../ast.js';
import { errorAt } from '../diagnostic.js';
import type { CheckContext } from './context.js';

export function checkNamespace({ file, report }: CheckContext): void {
  if (file.namespace) return;
  const start = { offset: 0, line: 1, column: 1 };
  const startOfFile: SourceSpan = { file: file.fileName, start, end: start };
  report(errorAt('missing-namespace', "missing namespace: start the file with 'namespace <name>'", startOfFile, { length: 1 }));
}
