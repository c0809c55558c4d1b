// Your service: one handler object per IDL interface. The types come from the generated gen/ folder
// (imported with the `.js` suffix Node needs; TypeScript maps it to the `.ts` file).
import { EmptyOrderError, UnknownProductError, type Product, type ShopHandlers } from '../gen/index.js';

const catalog: Product[] = [
  { productId: 'sencha', name: 'Sencha, 100 g', category: 'tea', price: 7.5 },
  { productId: 'espresso', name: 'Espresso beans, 250 g', category: 'coffee', price: 9 },
];

let lastOrder = 0;

export const handlers: ShopHandlers = {
  ShopService: {
    listProducts: () => catalog,
    getProduct: (productId) => catalog.find((product) => product.productId === productId) ?? null,
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
