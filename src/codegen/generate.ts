/**
 * Everything generated for one IDL, as declarations (see declarations.ts), in the order printed.
 */
import type { IdlModel } from '../idl/model.js';
import { ownManifest } from '../own-package.js';
import { toIdlJson } from '../idl/json.js';
import type { Declaration } from './declarations.js';
import { clientContracts, clientDeclarations } from './emit-client.js';
import { handlerInterfaceDeclarations, serverDeclarations } from './emit-server.js';
import { enumDeclarations, errorDeclarations, schemaDeclarations, structDeclarations, unionDeclarations } from './emit-types.js';
import { type SerializerDeclarations, serializerDeclarations } from './emit-serializers.js';
import { validatorDeclarations } from './emit-validators.js';
import { internedSchemas } from './interned-schemas.js';
import { internedIdlJson, keptJsonTexts } from './interned-idl-json.js';
import { contractsKey, interfacesKey, serializersKey, validatorsKey } from './phase-keys.js';
import { PhaseMemo } from './phase-memo.js';
import { keepPrinted } from './print.js';
import { namespaceView } from './namespace-view.js';
import { assertUniqueNames, type TypeScriptNames, typeScriptNames } from './names.js';
import { commentText } from './source-text.js';
import { once } from './once.js';

const VALIDATOR_RUNS = new PhaseMemo<Declaration[]>();
const SERIALIZER_RUNS = new PhaseMemo<SerializerDeclarations>();
const CLIENT_RUNS = new PhaseMemo<Declaration[]>();
const HANDLER_RUNS = new PhaseMemo<Declaration[]>();

export interface GeneratedDeclarations {
  declarations: Declaration[];
  /** The IDL JSON embedded in the server (also written as `idl.json` by the CLI). */
  idlJson: ReturnType<typeof toIdlJson>;
}

/**
 * Builds the declarations of the types, client and server parts of one namespace's module, every
 * name made valid TypeScript. `namespace` is that of an imported file (docs/idl.md, "Several
 * files"); by default the root file's. The root's module serves every interface of the program
 * (its server and validators cover them all); an imported namespace's module has its types,
 * clients and handler interfaces. Other namespaces' declarations are imported from their modules.
 *
 * With `reuseSlot` (the module's file), phases whose inputs are as they were in an earlier
 * generation of that slot are reused (phase-memo.ts): what a dev server regenerating an edited file
 * wants; the output is the same either way.
 */
export function generateDeclarations(model: IdlModel, namespace?: string, reuseSlot?: string): GeneratedDeclarations {
  const slot = reuseSlot === undefined ? undefined : `${reuseSlot}\n${namespace ?? ''}`;
  const remember = slot !== undefined;
  const idlJson = internedIdlJson(toIdlJson(model), slot);
  const names = typeScriptNames(model, namespace);
  const own = namespaceView(model, namespace);
  const isRoot = namespace === undefined;
  const served = isRoot ? model.interfaces : own.interfaces;
  const foreign = {
    structs: model.structs.filter((decl) => decl.namespace !== namespace),
    enums: model.enums.filter((decl) => decl.namespace !== namespace),
    ...(model.unions ? { unions: model.unions.filter((decl) => decl.namespace !== namespace) } : {}),
  };
  const declarations = [
    ...enumDeclarations(own, names),
    ...structDeclarations(own, names),
    ...unionDeclarations(own, names),
    ...errorDeclarations(own, names),
    ...schemaDeclarations(own, names, { foreign, interfaces: served }),
  ];
  // Internal names (compiled checks, validators, serializers) are made up here; they avoid every other name.
  const taken = new Set(names.taken);
  const servedModel = { ...model, interfaces: served };
  const schemas = internedSchemas(idlJson, remember);
  // A phase's output reused once is likely reused again (a dev server's edits): its text is kept.
  const phase = <T extends Declaration[] | SerializerDeclarations>(
    runs: PhaseMemo<T>,
    keyOf: () => string,
    run: (names: TypeScriptNames, taken: Set<string>) => T,
  ): T =>
    slot === undefined
      ? run(names, taken)
      : runs.run(slot, keyOf, names, taken, run, (output) => keepPrinted(Array.isArray(output) ? output : output.declarations));
  const validators = phase(
    VALIDATOR_RUNS,
    () => validatorsKey(served, idlJson),
    (recorded, made) => validatorDeclarations(servedModel, schemas, recorded, made, remember),
  );
  // Only the root module has a server: it serves every interface of the program.
  const serializers = isRoot
    ? phase(
        SERIALIZER_RUNS,
        () => serializersKey(idlJson),
        (recorded, made) => serializerDeclarations(idlJson, recorded, made, remember),
      )
    : undefined;
  // The client classes and handler interfaces are reused too when the interfaces are as they were
  // (written at the same places) and so are the contracts of the types they reach.
  const interfaces = once(() => interfacesKey(own.interfaces, own.errorsByName));
  const contracts = clientContracts(idlJson);
  const clientKey = () => `${interfaces()}\n${contractsKey(own.interfaces, contracts)}`;
  const clientAndServer = [
    ...phase(CLIENT_RUNS, clientKey, (recorded) => clientDeclarations(own, recorded, contracts)),
    ...phase(HANDLER_RUNS, interfaces, (recorded) => handlerInterfaceDeclarations(own, recorded)),
    ...(isRoot
      ? serverDeclarations(own, idlJson, names, {
          interfaces: model.interfaces,
          serializers: serializers!,
          ...(remember ? { keptJson: keptJsonTexts() } : {}),
        })
      : []),
  ];
  // One at a time: spread into `push`, the validators of a 100,000-struct IDL are more arguments than
  // the stack holds (RangeError).
  for (const declaration of validators) declarations.push(declaration);
  for (const declaration of clientAndServer) declarations.push(declaration);
  assertUniqueNames(declarations);
  return { declarations, idlJson };
}

/**
 * The first lines of every generated file (and of each copied runtime file): what made it, from
 * what, and that linters should leave it alone. The file name is user text: `commentText` keeps a
 * line break in it from ending the comment.
 */
export function generatedHeader(sourceFile: string): string {
  return `// @generated by idlrpc ${ownManifest().version} from ${commentText(sourceFile)}. Do not edit.\n/* eslint-disable */`;
}
