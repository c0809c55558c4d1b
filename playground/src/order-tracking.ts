import { ErrorCode, RpcError } from 'unplugin-idl-rpc/runtime/client';
import { OrderNotFoundError, type Order } from '../checkout.idl';
import { orderService } from './api.js';

/** How long the page waits before it watches again, once the client gave up reconnecting. */
const retryMs = 3000;

/** What the page says about the live status, under the badge. */
export interface TrackingView {
  /** The order's status changed (the first call is its status when tracking starts). */
  status(status: Order['status']): void;
  /** A sentence about the tracking itself: live, reconnecting, finished. */
  note(text: string): void;
}

/**
 * Shows an order's status live (OrderService.watchOrder, a stream) until it is delivered. The
 * client reconnects by itself after a lost connection, sending the last event id; should the server
 * be away longer than its attempts, the page starts a new stream from that id a few seconds later,
 * for as long as the order is shown. Returns the function that stops tracking (another order placed).
 */
export function trackOrder(orderId: string, view: TrackingView): () => void {
  const stop = new AbortController();
  void (async () => {
    let lastEventId: string | undefined;
    while (!stop.signal.aborted) {
      const stream = orderService.watchOrder(orderId, { signal: stop.signal, lastEventId });
      try {
        view.note('Live: the status changes here as the order moves.');
        for await (const order of stream) {
          lastEventId = stream.lastEventId;
          view.status(order.status);
        }
        view.note('Delivered: nothing more will change.');
        return;
      } catch (error) {
        if (stop.signal.aborted) return;
        lastEventId = stream.lastEventId ?? lastEventId;
        if (error instanceof OrderNotFoundError) return view.note('The server no longer knows this order.');
        // Only a lost server is worth waiting for; any other answer would come again.
        if (!(error instanceof RpcError && error.code === ErrorCode.TransportError)) {
          return view.note(`The live status stopped: ${error instanceof Error ? error.message : String(error)}`);
        }
        view.note('Connection to the server lost; trying again…');
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
  })();
  return () => stop.abort();
}
