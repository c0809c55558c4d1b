// @ts-check
// The service behind shop.idl: one handler object per IDL interface, typed by the declarations the
// plugin writes beside the IDL (shop.idl.d.ts), so `tsc -p .` checks them against the IDL.
import { EmptyOrderError, UnknownProductError } from './shop.idl';

/** @type {import('./shop.idl').Product[]} */
const catalog = [
  { productId: 'sencha', name: 'Sencha, 100 g', category: 'tea', price: 7.5 },
  { productId: 'espresso', name: 'Espresso beans, 250 g', category: 'coffee', price: 9 },
];

let lastOrder = 0;

/** @type {import('./shop.idl').ShopHandlers} */
export const handlers = {
  ShopService: {
    listProducts() {
      return catalog;
    },
    getProduct(productId) {
      return catalog.find((product) => product.productId === productId) ?? null;
    },
    placeOrder(lines) {
      // Declared errors are thrown as their generated classes; the client sees their IDL code.
      if (lines.length === 0) throw new EmptyOrderError();
      let total = 0;
      for (const line of lines) {
        const product = catalog.find((p) => p.productId === line.productId);
        if (!product) throw new UnknownProductError(line.productId);
        total += product.price * line.quantity;
      }
      lastOrder += 1;
      return { orderId: `order-${lastOrder}`, lines, total };
    },
  },
};
