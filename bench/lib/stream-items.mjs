/**
 * What the streams suite streams: Order-like items, each carrying the moment the handler made it,
 * from one async generator that every server (bare, oRPC, ours) iterates, so the item source costs
 * all of them the same. Also the IDL our server is generated from.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes of one machine. */
export const nowMs = () => performance.timeOrigin + performance.now();

const statuses = ['pending', 'paid', 'shipped', 'delivered'];

/** The order every item carries (a 10-item cart), its status moving on with each item. */
const order = {
  orderId: 'order-7',
  cart: {
    cartId: 'cart-42',
    items: Array.from({ length: 10 }, (_, i) => ({ productId: `p-${100 + i}`, quantity: i + 1, price: 9.99 + i })),
    subtotal: 1234.5,
  },
  shippingAddress: { street: '1 Main Street', city: 'Springfield', state: 'OR', zipCode: '97477', country: 'US' },
  paymentMethod: 'paypal',
  status: 'pending',
  total: 1234.5,
  createdAt: 1_763_800_000,
};

/**
 * `count` items, one every `intervalMs` (0: as fast as the consumer takes them). `sentAt` is set as
 * the item is yielded, so a client that subtracts it from its own `nowMs()` in its loop body
 * measures yield -> loop body.
 */
export async function* orderUpdates(count, intervalMs) {
  for (let sequence = 1; sequence <= count; sequence++) {
    if (intervalMs > 0 && sequence > 1) await sleep(intervalMs);
    yield { sequence, sentAt: nowMs(), order: { ...order, status: statuses[sequence % statuses.length] } };
  }
}

/** The same item shape in our IDL: what our server is generated from. */
export const streamBenchIdl = `// The streams benchmark: Order-like items streamed as fast as the client reads them.
namespace streambench

enum OrderStatus {
    pending
    paid
    shipped
    delivered
    cancelled
}

enum PaymentMethod {
    credit_card
    debit_card
    paypal
    apple_pay
}

struct CartItem {
    productId    string
    quantity     int
    price        float
}

struct Cart {
    cartId       string
    items        []CartItem
    subtotal     float
}

struct Address {
    street       string
    city         string
    state        string
    zipCode      string
    country      string
}

struct Order {
    orderId          string
    cart             Cart
    shippingAddress  Address
    paymentMethod    PaymentMethod
    status           OrderStatus
    total            float
    createdAt        int
}

struct OrderUpdate {
    sequence     int
    // performance.timeOrigin + performance.now() in the server when the handler yielded the item.
    sentAt       float
    order        Order
}

interface StreamBench {
    // count items, one every intervalMs (0: as fast as the client reads them).
    orders(count int, intervalMs int) stream OrderUpdate
}
`;
