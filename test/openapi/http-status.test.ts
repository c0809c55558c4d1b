/**
 * `httpStatus` in the OpenAPI document: declared errors the server answers with their own HTTP
 * status (`createRpcServer({ httpStatus })`) are listed under that status on every operation, the
 * other declared errors stay under 422; the document still passes strict validation and converts
 * back to the same IDL; `idlrpc -idl-to-openapi -http-status` does the same.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';
import { comparableModel, expectChecksClean, strictProblems } from './helpers.js';

const notesFile = join(import.meta.dirname, '../runtime/fixtures/notes.idl');
const notesSource = readFileSync(notesFile, 'utf8');
const httpStatus = { Unauthorized: 401, Forbidden: 403 };

type Json = Record<string, any>;
const documentOf = (options = {}) => idlToOpenApi([compileIdl(notesSource, 'notes.idl')], { httpStatus, ...options }).document as Json;

describe('httpStatus', () => {
  it('lists the mapped errors under their statuses on every operation, and the others under 422 where raised', () => {
    const paths = documentOf().paths as Json;
    for (const path of ['/NoteService/addNote', '/NoteService/getNote', '/NoteService/slow', '/AdminService/wipe']) {
      const responses = paths[path].post.responses;
      expect(responses['401'].description).toBe(
        'A declared error with its own HTTP status (`httpStatus`):\n- 4001 Unauthorized: sign in first',
      );
      expect(responses['401'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([4001]);
      expect(responses['403'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([4003]);
    }
    expect(paths['/NoteService/getNote'].post.responses['422'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      4004,
    ]);
    expect(paths['/NoteService/addNote'].post.responses['422']).toBeUndefined();
    expect(Object.keys(paths['/NoteService/getNote'].post.responses)).toEqual(['200', '400', '401', '403', '422', '500']);
  });

  it.each(['3.1', '3.0'] as const)('passes strict validation (%s) and converts back to the same IDL', async (version) => {
    const document = documentOf({ version });
    expect(await strictProblems(document)).toEqual([]);
    const back = openApiToIdl({ document }, {});
    expect(comparableModel(expectChecksClean(back.idl))).toEqual(comparableModel(compileIdl(notesSource, 'notes.idl')));
  });

  it('names an unknown error or a status that is not an HTTP error', () => {
    expect(() => documentOf({ httpStatus: { Unauthorised: 401 } })).toThrow(
      'idlToOpenApi: httpStatus names "Unauthorised", which is not an error of the IDL (errors: Unauthorized, Forbidden, NoteNotFound)',
    );
    expect(() => documentOf({ httpStatus: { Forbidden: 302 } })).toThrow(
      'idlToOpenApi: httpStatus.Forbidden must be an HTTP error status from 400 to 599, got 302',
    );
  });

  it('idlrpc -idl-to-openapi -http-status writes the same document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idlrpc-http-status-'));
    try {
      let stderr = '';
      const code = await main(['-idl-to-openapi', notesFile, '-output-dir', dir, '-http-status', 'Unauthorized=401,Forbidden=403'], {
        stdout: () => undefined,
        stderr: (text) => void (stderr += text),
        cwd: dir,
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'notes.openapi.json'), 'utf8')).paths).toEqual(documentOf().paths);
      const bad = await main(['-idl-to-openapi', notesFile, '-output-dir', dir, '-http-status', 'Unauthorized:401'], {
        stdout: () => undefined,
        stderr: (text) => void (stderr += text),
        cwd: dir,
      });
      expect(bad).toBe(2);
      expect(stderr).toContain('-http-status: "Unauthorized:401" is not <Error>=<status> (like Unauthorized=401)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
