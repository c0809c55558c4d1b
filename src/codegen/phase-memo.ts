/**
 * Reuse of what a generation phase produced, across generations: a dev server or a watch build
 * regenerates an IDL on every edit, and most edits leave most phases' inputs as they were.
 *
 * A phase (the validators, the serializers, the client classes, the handler interfaces: see
 * generate.ts) is a function of three things: its input key (the parts of the model it reads, as
 * text: phase-keys.ts), the names it asks `TypeScriptNames` for, and the answers it gets from the
 * set of names the module has taken (each made-up name, `check_Cart`, is the first of `check_Cart`,
 * `check_Cart2`, ... not taken). A run is recorded with the questions it
 * asked and the answers it got. A later generation with the same key asks the recorded questions
 * again, without running the phase: when every answer is the same, the phase would run exactly as
 * it did, so its output is reused and the names it took are taken again. Any other answer (a new
 * struct named `check_Cart`, a renamed type) runs the phase anew.
 *
 * Runs are kept per slot (the module's file): a generation is compared with the earlier ones of
 * its own file only, and a key is computed only when there is one to compare with, so a build that
 * generates each file once computes none. Nothing here changes what is generated: only whether it
 * is computed again.
 */
import type { Use } from './declarations.js';
import type { ServerNames, TypeScriptNames } from './names.js';
import { clearInternedSchemas } from './interned-schemas.js';
import { clearInternedIdlJson } from './interned-idl-json.js';

/** Runs kept per slot: the latest and the one before it (an edit undone is reused). */
const RUNS_PER_SLOT = 2;
/** Slots kept per phase: the files generated most recently. */
const MAX_SLOTS = 64;

/** One question a phase asked: of the taken names (`has`, `add`) or of `TypeScriptNames`. */
type Question =
  | { kind: 'has'; name: string; answer: boolean }
  | { kind: 'add'; name: string }
  | { kind: 'name'; method: NameMethod; argument: string; answer: string };

type NameMethod = 'declared' | 'schema' | 'errorClass' | 'errorCode' | 'client' | 'use' | 'useValue' | 'server';

interface Entry<T> {
  /** The input key, computed from `keyOf` when first compared. */
  key?: string;
  keyOf?: () => string;
  output: T;
  questions: Question[];
  /** Whether a generation reused it already. */
  reused?: boolean;
}

/** How often phases were reused or run, since the start or the last {@link clearPhaseMemos} (tests read it). */
export const phaseMemoStats = { reused: 0, run: 0 };

const memos = new Set<PhaseMemo<unknown>>();

/**
 * Forgets every recorded phase, and the schemas kept from earlier generations with what was made
 * from them (tests, and anything that must generate from scratch).
 */
export function clearPhaseMemos(): void {
  for (const memo of memos) memo.clear();
  clearInternedSchemas();
  clearInternedIdlJson();
  Object.assign(phaseMemoStats, { reused: 0, run: 0 });
}

/** The recorded runs of one phase, per slot. */
export class PhaseMemo<T> {
  /** Insertion order is use order: the first slot is the least recently used. Each slot's runs, newest first. */
  private readonly slots = new Map<string, Entry<T>[]>();

  constructor() {
    memos.add(this as PhaseMemo<unknown>);
  }

  /**
   * `phase(names, taken)`'s output: reused when a run of `slot` with the same key (`keyOf()`) asked
   * questions that `names` and `taken` answer the same way today (its names are then added to
   * `taken`), else computed now and recorded. `keyOf` is called only when `slot` has runs, and must
   * give the same key whenever it is called (it reads inputs that do not change). `firstReused` is
   * called with a run's output the first time a generation reuses it.
   */
  run(
    slot: string,
    keyOf: () => string,
    names: TypeScriptNames,
    taken: Set<string>,
    phase: (names: TypeScriptNames, taken: Set<string>) => T,
    firstReused?: (output: T) => void,
  ): T {
    const runs = this.slots.get(slot) ?? [];
    this.slots.delete(slot);
    this.slots.set(slot, runs);
    const key = runs.length > 0 ? keyOf() : undefined;
    const reusable = runs.find((entry) => keyOfEntry(entry) === key && answersHold(entry.questions, names, taken));
    if (reusable) {
      runs.splice(runs.indexOf(reusable), 1);
      runs.unshift(reusable);
      phaseMemoStats.reused++;
      if (!reusable.reused) firstReused?.(reusable.output);
      reusable.reused = true;
      return reusable.output;
    }
    phaseMemoStats.run++;
    const questions: Question[] = [];
    const output = phase(recordingNames(names, questions), new RecordingNameSet(taken, questions));
    runs.unshift(key === undefined ? { keyOf, output, questions } : { key, output, questions });
    runs.length = Math.min(runs.length, RUNS_PER_SLOT);
    if (this.slots.size > MAX_SLOTS) this.slots.delete(this.slots.keys().next().value as string);
    return output;
  }

  clear(): void {
    this.slots.clear();
  }
}

/** An entry's key, computed once (its `keyOf` is then let go, with the inputs it holds). */
function keyOfEntry(entry: Entry<unknown>): string {
  if (entry.key === undefined) {
    entry.key = entry.keyOf!();
    entry.keyOf = undefined;
  }
  return entry.key;
}

/**
 * Whether `names` and `taken` answer every recorded question as recorded (the names the phase took
 * counted as taken from where it took them); if so, those names are added to `taken`.
 */
function answersHold(questions: readonly Question[], names: TypeScriptNames, taken: Set<string>): boolean {
  const added = new Set<string>();
  for (const question of questions) {
    switch (question.kind) {
      case 'has':
        if ((taken.has(question.name) || added.has(question.name)) !== question.answer) return false;
        break;
      case 'add':
        added.add(question.name);
        break;
      case 'name':
        if (answerOf(names, question.method, question.argument) !== question.answer) return false;
        break;
    }
  }
  for (const name of added) taken.add(name);
  return true;
}

/** What `names` answers to a recorded question, as text (undefined when it throws, as for a name it does not know). */
function answerOf(names: TypeScriptNames, method: NameMethod, argument: string): string | undefined {
  try {
    switch (method) {
      case 'use':
        return useText(names.use(argument, false));
      case 'useValue':
        return useText(names.use(argument, true));
      case 'server':
        return serverText(names.server);
      default:
        return names[method](argument);
    }
  } catch {
    return undefined;
  }
}

const useText = (use: Use) => `${use.from} ${use.name} ${use.typeOnly}`;
const serverText = (server: ServerNames) => `${server.idl} ${server.handlers} ${server.options} ${server.create}`;

/** `names`, with every question asked of it written to `questions`. */
function recordingNames(names: TypeScriptNames, questions: Question[]): TypeScriptNames {
  const asked =
    (method: Exclude<NameMethod, 'use' | 'useValue' | 'server'>) =>
    (argument: string): string => {
      const answer = names[method](argument);
      questions.push({ kind: 'name', method, argument, answer });
      return answer;
    };
  return {
    declared: asked('declared'),
    schema: asked('schema'),
    errorClass: asked('errorClass'),
    errorCode: asked('errorCode'),
    client: asked('client'),
    use(argument, value) {
      const use = names.use(argument, value);
      questions.push({ kind: 'name', method: value ? 'useValue' : 'use', argument, answer: useText(use) });
      return use;
    },
    get server() {
      questions.push({ kind: 'name', method: 'server', argument: '', answer: serverText(names.server) });
      return names.server;
    },
    get taken(): ReadonlySet<string> {
      // A phase is given the taken names as its own argument, which records them; this set would not.
      throw new Error('internal error: a recorded phase read TypeScriptNames.taken');
    },
  };
}

/**
 * The module's taken names as a phase sees them, every `has` and `add` written to `questions`. It
 * holds nothing itself: only `has` and `add` are what phases (`uniqueName`, `claimName`) use.
 */
class RecordingNameSet extends Set<string> {
  constructor(
    private readonly names: Set<string>,
    private readonly questions: Question[],
  ) {
    super();
  }

  override has(name: string): boolean {
    const answer = this.names.has(name);
    this.questions.push({ kind: 'has', name, answer });
    return answer;
  }

  override add(name: string): this {
    // `super()` calls no `add`, so `names` is set whenever this runs.
    this.names.add(name);
    this.questions.push({ kind: 'add', name });
    return this;
  }
}
