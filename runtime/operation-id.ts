/**
 * The name an IDL method goes by outside JSON-RPC: the OpenAPI document's operationId and the MCP
 * binding's tool name. One rule, so a method has the same name in both.
 */

/**
 * `<Interface>_<method>`, the dots of a qualified interface name written `_`
 * (`inventory_InventoryService_getStock`): generators make function names of operationIds, agents
 * see tool names, and a dot is no part of a name in most languages. A name already in `taken` gets
 * a numbered suffix (`_2`, `_3`, ...); the name given is added to `taken`.
 */
export function operationIdOf(interfaceName: string, methodName: string, taken: Set<string>): string {
  const wanted = `${interfaceName.replaceAll('.', '_')}_${methodName}`;
  let id = wanted;
  for (let i = 2; taken.has(id); i++) id = `${wanted}_${i}`;
  taken.add(id);
  return id;
}
