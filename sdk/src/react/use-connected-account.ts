/**
 * `useConnectedAccount`: the signed-in user's connected account of a provider, for calling the
 * provider's API with the user's token. It suspends while the first answer loads (the provider's
 * Suspense boundary shows a loader) and answers null when the user has no connection with the
 * scopes (or is signed out), unless asked to connect again (`or: "redirect"`) or to throw.
 */
import type { ReactConnectedAccount, ReactUser } from "./app-types";
import { useUser } from "./use-user";

export type UseConnectedAccountOptions = { scopes?: string[]; or?: "redirect" | "throw" | "return-null" };

/** A promise that never settles: keeps a page suspended while it leaves to connect the account. */
const forever = new Promise<never>(() => {});

type Entry = { promise: Promise<void>; settled: boolean; value: ReactConnectedAccount | null; error: unknown };

/** Answers per user object: a refreshed user (after any change) asks again. */
const answers = new WeakMap<ReactUser, Map<string, Entry>>();

function entryFor(user: ReactUser, providerId: string, options: UseConnectedAccountOptions): Entry {
  let perUser = answers.get(user);
  if (!perUser) {
    perUser = new Map();
    answers.set(user, perUser);
  }
  const key = JSON.stringify([providerId, [...(options.scopes ?? [])].sort(), options.or ?? "return-null"]);
  let entry = perUser.get(key);
  if (!entry) {
    const created: Entry = { promise: Promise.resolve(), settled: false, value: null, error: undefined };
    created.promise = user.getConnectedAccount(providerId, options).then(
      (value) => {
        created.value = value;
        created.settled = true;
      },
      (error: unknown) => {
        created.error = error ?? new Error("getConnectedAccount failed");
        created.settled = true;
      },
    );
    entry = created;
    perUser.set(key, entry);
  }
  return entry;
}

/**
 * The connected account of `providerId` with `scopes`, or null.
 *
 * @example
 * const github = useConnectedAccount("github", { scopes: ["repo"], or: "redirect" });
 * const { accessToken } = await github!.getAccessToken(); // in an event handler
 */
export function useConnectedAccount(providerId: string, options: UseConnectedAccountOptions = {}): ReactConnectedAccount | null {
  const user = useUser();
  if (!user) return null;
  const entry = entryFor(user, providerId, options);
  if (!entry.settled) throw entry.promise;
  if (entry.error !== undefined) throw entry.error;
  if (!entry.value && options.or === "redirect") throw forever;
  return entry.value;
}
