/**
 * The syntax tree of a file with syntax errors: every declaration the parser read whole, and of a
 * declaration it gave up on, what it read before (its name, parent, the items before the error) and
 * after it resumed inside the same block (see syntax-recovery.ts). So tools get a tree, and a
 * symbol table, for a file that does not parse.
 *
 * The grammar reports what it reads as it goes (Parsimmon gives no value for a parse that fails,
 * however much of it succeeded); this builder puts those pieces together, in source order. Parsing a
 * valid file reports the same pieces, which are then simply not used.
 */
import type { Declaration, EnumValue, ErrorDecl, Field, IdlFile, ImportDecl, Method, Name, NamespaceDecl, SourceSpan } from './ast.js';
import type { BlockKind, OpenBlock } from './syntax-recovery.js';

type Item = EnumValue | Field | ErrorDecl | Method;

/** A declaration whose header was read and whose `}` was not (yet). */
interface OpenDeclaration {
  kind: BlockKind;
  /** Offset of its keyword. */
  start: number;
  /** Offset after the last thing read of it. */
  end: number;
  name?: Name;
  parent?: Name;
  items: Item[];
}

export class PartialTreeBuilder {
  private namespace?: NamespaceDecl;
  /** By offset: parsing again from a resume point reads an import a second time. */
  private readonly importsByOffset = new Map<number, ImportDecl>();
  private readonly declarations: Declaration[] = [];
  private open?: OpenDeclaration;

  /**
   * @param spanOf the span of the offsets `start..end` of the parsed text
   * @param docCommentAt the doc comment of a declaration whose keyword is at `start`
   */
  constructor(
    private readonly spanOf: (start: number, end: number) => SourceSpan,
    private readonly docCommentAt: (start: number) => string | undefined,
  ) {}

  /** The namespace line (the first one, should there be more). */
  namespaceRead(namespace: NamespaceDecl): void {
    this.namespace ??= namespace;
  }

  /** An `import` line. */
  importRead(declaration: ImportDecl): void {
    this.importsByOffset.set(declaration.span.start.offset, declaration);
  }

  /** The imports read so far, in source order. */
  imports(): ImportDecl[] {
    return [...this.importsByOffset.values()].sort((a, b) => a.span.start.offset - b.span.start.offset);
  }

  /**
   * A declaration header was read up to its name (`errors`: its keyword) at `start`. Whatever was
   * read from `start` on before is dropped: it is being read again.
   */
  opened(kind: BlockKind, start: number, end: number, name?: Name): void {
    this.closeOpen();
    while (this.declarations.length > 0 && this.declarations[this.declarations.length - 1].span.start.offset >= start) {
      this.declarations.pop();
    }
    this.open = name ? { kind, start, end, name, items: [] } : { kind, start, end, items: [] };
  }

  /** The `extends` parent of the open struct. */
  parentRead(parent: Name): void {
    if (!this.open) return;
    this.open.parent = parent;
    this.open.end = parent.span.end.offset;
  }

  /** An enum value, field, error or method of the open block. */
  itemRead(item: Item): void {
    if (!this.open) return;
    this.open.items.push(item);
    this.open.end = item.span.end.offset;
  }

  /** A whole declaration: it replaces the open one. */
  completed(declaration: Declaration): void {
    this.open = undefined;
    this.declarations.push(declaration);
  }

  /** The `}` of the open block, ending at `end`, after parsing resumed inside it. */
  blockClosed(end: number): void {
    if (!this.open) return;
    this.open.end = end;
    this.closeOpen();
  }

  /**
   * Parsing resumes on an item line of `block`, whose header the grammar has read: the items join
   * its open declaration. (Should another one be open, it is closed, and the block's items left out.)
   */
  resumedIn(block: OpenBlock): void {
    if (this.open?.start !== block.start) this.closeOpen();
  }

  /** Parsing resumes at top level: the open declaration ends where its reading ended. */
  resumedAtTopLevel(): void {
    this.closeOpen();
  }

  /** The tree of `source`, with everything read so far. */
  file(fileName: string, source: string): IdlFile {
    this.closeOpen();
    // A declaration given up on, or read after resuming at its keyword's line, never got its doc
    // comment from the grammar: read it from the lines above.
    for (const declaration of this.declarations) {
      if (declaration.comment !== undefined) continue;
      const comment = this.docCommentAt(declaration.span.start.offset);
      if (comment !== undefined) declaration.comment = comment;
    }
    const file: IdlFile = { fileName, source, declarations: this.declarations };
    if (this.namespace) file.namespace = this.namespace;
    const imports = this.imports();
    if (imports.length > 0) file.imports = imports;
    return file;
  }

  private closeOpen(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.declarations.push(partialDeclaration(open, this.spanOf(open.start, open.end)));
  }
}

function partialDeclaration(open: OpenDeclaration, span: SourceSpan): Declaration {
  const items = open.items;
  if (open.kind === 'errors') return { kind: 'errors', errors: items as ErrorDecl[], span };
  const name = open.name!;
  if (open.kind === 'enum') return { kind: 'enum', name, values: items as EnumValue[], span };
  if (open.kind === 'interface') return { kind: 'interface', name, methods: items as Method[], span };
  if (open.parent) return { kind: 'struct', name, extends: open.parent, fields: items as Field[], span };
  return { kind: 'struct', name, fields: items as Field[], span };
}
