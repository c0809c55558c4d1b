import type { Product } from '../checkout.idl';

/**
 * The playground's starting catalog: a small coffee shop. Images are SVGs in `playground/public/images`,
 * served by the playground's own dev server, so `imageUrl` is a path on the page's origin.
 *
 * Two products make the declared errors easy to try: the stoneware mug has 3 in stock and the moka
 * pot only 1, so adding more of them than that and checking out gives OutOfStock.
 */
export const catalog: readonly Product[] = [
  product('espresso-cups', 'Ceramic Espresso Cups', 'A pair of thick-walled 80 ml cups that keep a double shot hot.', 18.0, 40),
  product('pour-over', 'Glass Pour-Over Dripper', 'Borosilicate cone for one or two cups; pairs with size 02 filters.', 29.5, 25),
  product('grinder', 'Burr Coffee Grinder', 'Conical steel burrs with 40 settings, from espresso to cold brew.', 129.0, 8),
  product('kettle', 'Gooseneck Kettle', 'A 0.9 l kettle with a slim spout for a slow, even pour.', 64.9, 15),
  product('beans-ethiopia', 'Ethiopia Yirgacheffe, 250 g', 'Washed light roast with notes of jasmine, lemon and honey.', 14.75, 60),
  product('beans-colombia', 'Colombia Huila, 250 g', 'Medium roast with notes of red apple, caramel and cocoa.', 13.5, 60),
  product('french-press', 'French Press, 1 l', 'Double-wall steel press that brews four mugs at once.', 39.0, 20),
  product('scale', 'Coffee Scale with Timer', 'Weighs to 0.1 g and times your brew from the first drop.', 49.99, 12),
  product('filters', 'Paper Filters, 100 pack', 'Unbleached size 02 filters for cone drippers.', 6.25, 200),
  product('tote', 'Canvas Tote Bag', 'Heavy cotton tote, big enough for a week of groceries.', 22.0, 30),
  product('mug', 'Stoneware Mug', 'A 350 ml glazed mug, made by hand; every one is a little different.', 16.5, 3),
  product('moka-pot', 'Moka Pot, 6 cups', 'Classic aluminium stovetop brewer; our last one in stock.', 44.0, 1),
];

function product(slug: string, name: string, description: string, price: number, stock: number): Product {
  return { productId: slug, name, description, price, stock, imageUrl: `/images/${slug}.svg` };
}
