/**
 * Field defaults at any depth: a struct inside an array, a map, another struct (recursive too) gets
 * the default of each field left out or null; present values stay; a default is never shared.
 */
import { describe, expect, it } from 'vitest';
import { fieldDefaultFillers, fillFieldDefaults } from '../../runtime/field-defaults.js';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';

const IDL = `namespace t

struct Node {
    name      string      [optional, default="anonymous"]
    labels    []string    [optional, default=[]]
    children  []Node      [optional]
}

struct Box {
    nodes  map[string]Node
    root   Node
}

interface T {
    put(boxes []Box, plain int) bool
}
`;

describe('field defaults', () => {
  const fillers = fieldDefaultFillers(toIdlJson(compileIdl(IDL, 't.idl')));

  it('fill structs inside arrays, maps and recursive structs; present values stay', () => {
    const args: unknown[] = [[{ nodes: { a: {}, b: { name: 'b', labels: null } }, root: { children: [{ name: null }] } }], 1];
    fillFieldDefaults(args, fillers.get('T.put')!);
    expect(args).toEqual([
      [
        {
          nodes: { a: { name: 'anonymous', labels: [] }, b: { name: 'b', labels: [] } },
          root: { name: 'anonymous', labels: [], children: [{ name: 'anonymous', labels: [] }] },
        },
      ],
      1,
    ]);
    const box = (args[0] as any[])[0];
    // Each left-out field got its own copy of the default.
    expect(box.nodes.a.labels).not.toBe(box.nodes.b.labels);
  });

  it('leave values of the wrong shape as they are', () => {
    const args: unknown[] = [['not a box', { nodes: 3, root: null }], 'x'];
    fillFieldDefaults(args, fillers.get('T.put')!);
    expect(args).toEqual([['not a box', { nodes: 3, root: null }], 'x']);
  });
});
