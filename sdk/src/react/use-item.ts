/**
 * `useItem`: a customer's item (credits, seats…), kept up to date. It reads through the SDK's
 * item cache: it suspends during the first read (the provider's Suspense boundary shows a
 * loader), and re-renders when the cached item changes (after `increaseQuantity`, a grant, or
 * any re-read). Importing the React entry also enables `user.useItem(id)` and `team.useItem(id)`.
 */
import { useMemo, useSyncExternalStore } from "react";
import { _installItemHook, type Item, type ItemBinding } from "../apps/payments";

/** A failed first read, thrown once to the error boundary; a later render reads again. */
const failures = new WeakMap<ItemBinding<Item>, unknown>();

function useItemBinding<I extends Item>(binding: ItemBinding<I>): I {
  const json = useSyncExternalStore(binding.subscribe, binding.snapshot, binding.snapshot);
  const item = useMemo(() => (json === undefined ? undefined : binding.build(json)), [binding, json]);
  if (item !== undefined) return item;
  if (failures.has(binding)) {
    const error = failures.get(binding);
    failures.delete(binding);
    throw error;
  }
  throw binding.load().catch((error: unknown) => {
    failures.set(binding, error ?? new Error("useItem: the item could not be read"));
  });
}

_installItemHook(useItemBinding);

/**
 * The item `itemId` of a customer: the signed-in user, one of its teams, or (server) any user or
 * team object. The same as `customer.useItem(itemId)`.
 *
 * @example
 * const user = useUser({ or: "redirect" });
 * const credits = useItem(user, "credits");
 * return <p>{credits.nonNegativeQuantity} credits left</p>;
 */
export function useItem<I extends Item>(customer: { useItem(itemId: string): I }, itemId: string): I {
  return customer.useItem(itemId);
}
