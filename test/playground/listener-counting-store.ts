/** A store wrapper for the order-watching tests: it counts the change listeners it has running. */
import type { CheckoutStore } from '../../playground/service/store.js';

/** `store`, counting its running change listeners (one per open watcher): `listening()`. */
export function listenerCountingStore(store: CheckoutStore): CheckoutStore & { listening(): number } {
  let listening = 0;
  return Object.assign(Object.create(store) as CheckoutStore, {
    async onOrderChange(listener: Parameters<CheckoutStore['onOrderChange']>[0]) {
      const stop = await store.onOrderChange(listener);
      listening++;
      let stopped = false;
      return () => {
        if (!stopped) listening--;
        stopped = true;
        stop();
      };
    },
    listening: () => listening,
  });
}
