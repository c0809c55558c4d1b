/**
 * What the checkout service offers AI agents over MCP, shared by the standalone server
 * (server/mcp.ts) and the Vite dev server (vite.config.ts's `server.mcp`).
 */

/** Every interface of checkout.idl: each of their methods is a tool but the stream method `watchOrder`. */
export const checkoutMcpTools = {
  expose: ['CatalogService', 'CartService', 'OrderService'],
  serverInfo: { name: 'checkout-playground', version: '1.0.0' },
  instructions:
    'A shop: list the products (CatalogService_listProducts), put some in a cart (CartService_addToCart; ' +
    'keep the cartId it returns), then order the cart (OrderService_createOrder). Prices are in US dollars.',
};
