/**
 * The checkout IDL's types as zod 4.6.7 schemas, the one schema library of the oRPC and tRPC rows,
 * written the way a zod user would with the IDL's rules: ints whole and within +-(2^53-1)
 * (`z.int()`), floats any finite number, optional fields absent or null (`.nullish()`), unknown
 * fields accepted (`z.object` drops them, as our serializer writes only declared fields). Only the
 * methods the suites call are here.
 */
import { z } from 'zod';

const Product = z.object({
  productId: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  stock: z.int(),
  imageUrl: z.string().nullish(),
});

const CartItem = z.object({ productId: z.string(), quantity: z.int(), price: z.number() });

const Cart = z.object({ cartId: z.string(), items: z.array(CartItem), subtotal: z.number() });

const AddToCartRequest = z.object({ cartId: z.string().nullish(), productId: z.string(), quantity: z.int() });

/**
 * Per interface and method: the input schema (none for a method without parameters; the IDL's
 * single parameter otherwise), the output schema, and whether tRPC serves it as a query (a read)
 * or a mutation.
 */
export const checkoutProcedures = {
  CatalogService: {
    listProducts: { output: z.array(Product), kind: 'query' },
    // `Product [optional]`: the handler answers null for an unknown id.
    getProduct: { input: z.string(), output: Product.nullable(), kind: 'query' },
  },
  CartService: {
    addToCart: { input: AddToCartRequest, output: Cart, kind: 'mutation' },
  },
};
