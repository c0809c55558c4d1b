// Calls the shop service with the generated client: `node dist/src/client.js [address]`.
import { ShopServiceClient, UnknownProductError } from '../gen/index.js';
import { HttpTransport } from '../gen/runtime/index.js';

const shop = new ShopServiceClient(new HttpTransport(process.argv[2] ?? 'http://localhost:8080'));

const products = await shop.listProducts(); // Product[]
console.log(`products: ${products.map((product) => product.productId).join(', ')}`);

const order = await shop.placeOrder([{ productId: 'sencha', quantity: 2 }]); // Order
console.log(`placed ${order.orderId}, total ${order.total}`);

try {
  await shop.placeOrder([{ productId: 'matcha', quantity: 1 }]);
} catch (error) {
  // A declared error arrives as its generated class.
  if (!(error instanceof UnknownProductError)) throw error;
  console.log(`declared error ${UnknownProductError.code}: ${error.message}`);
}
