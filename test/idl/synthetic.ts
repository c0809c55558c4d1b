/**
 * A large, valid, deterministic IDL for benchmarks and scale tests: `syntheticIdl(10_000)` gives
 * about 10,000 lines in the style of checkout.idl (doc comments, enums, structs with extends,
 * arrays, maps, optional fields, errors, interfaces with raises).
 */
export function syntheticIdl(targetLines: number): string {
  const out: string[] = ['// A synthetic service for scale tests.', 'namespace synthetic', ''];
  const errorNames: string[] = [];
  out.push('errors {');
  for (let i = 1; i <= 20; i++) {
    errorNames.push(`Failure${i}`);
    out.push(`    // Raised when step ${i} fails.`, `    ${1000 + i} Failure${i} "step ${i} failed: \\"quoted\\" détail"`);
  }
  out.push('}', '');

  for (let group = 0; out.length < targetLines; group++) {
    const g = `G${group}`;
    out.push(
      `// Status of ${g}.`,
      `enum ${g}Status {`,
      '    pending',
      '    // Done, successfully.',
      '    done',
      '    failed',
      '}',
      '',
      `// The base record of group ${group}.`,
      `struct ${g}Base {`,
      '    id           string',
      '    createdAt    int',
      '    labels       map[string]string  [optional]',
      '}',
      '',
      `struct ${g}Item extends ${g}Base {`,
      '    // Quantity ordered.',
      '    quantity     int',
      '    price        float',
      `    status       ${g}Status`,
      '    tags         []string  [optional]',
      ...(group > 0 ? [`    previous     G${group - 1}Item  [optional]`] : []),
      '}',
      '',
      `struct ${g}Page {`,
      `    items        []${g}Item`,
      '    total        int',
      '    next         string  [optional]',
      '}',
      '',
      `interface ${g}Service {`,
      `    // Lists items of ${g}.`,
      `    list(offset int, limit int) ${g}Page`,
      '',
      `    get(id string) ${g}Item [optional]`,
      '',
      `    put(item ${g}Item, replace bool) ${g}Item raises(${errorNames[group % 20]}, ${errorNames[(group + 7) % 20]})`,
      '',
      `    counts() map[string]int`,
      '}',
      '',
    );
  }
  return out.join('\n');
}
