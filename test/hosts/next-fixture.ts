/** What the Next.js tests share about the fixture app (test/hosts/next-app). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { FreshApp } from './fresh-app.js';

/** Asserts the output names the broken file with line and column and shows the frame. */
export function expectIdlErrorReport(output: string, dir: string): void {
  expect(output).toContain(`${path.join(dir, 'greeter.idl')}:4:5: error: expected an error code`);
  expect(output).toMatch(/> 4 \| {5}NameTooLong "no code"/); // the frame's source line
  expect(output).toMatch(/\| {5}\^{11}/); // and its marker
}

/** Changes the code of the declared error in the app's greeter.idl. */
export function editDeclaredErrorCode(app: FreshApp, from: number, to: number): void {
  const file = path.join(app.dir, 'greeter.idl');
  app.write('greeter.idl', readFileSync(file, 'utf8').replace(`${from} NameTooLong`, `${to} NameTooLong`));
}
