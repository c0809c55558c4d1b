/**
 * `unplugin-idl-rpc/runtime/mock`: mock handlers made from the IDL's JSON form (docs/mock.md). Never
 * imported by generated code or the other runtime entries, so no production bundle carries it.
 */
export { createMockHandlers, mockBaseTime, type MockHandlers, type MockOptions } from './mock-handlers.js';
export { MOCK_ERROR_HEADER } from './mock-error.js';
