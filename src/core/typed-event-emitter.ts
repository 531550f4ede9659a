/** A listener for one event of an event map. */
export type EventListener<T> = (event: T) => void;

/**
 * A small, typed, synchronous event emitter: the TypeScript form of the specs' C# `event`s.
 * Runtime-neutral (no `node:events`), so the package root stays usable outside Node.
 *
 * A listener that throws does not stop the other listeners, and never reaches the code that
 * emitted the event: its error goes to `onListenerError` (by default, `console.error`).
 *
 * @example
 * ```ts
 * const events = new TypedEventEmitter<{ toolsChanged: ToolRegistryChangedEvent }>();
 * const off = events.on("toolsChanged", (e) => console.log(e.changeType));
 * off();
 * ```
 */
export class TypedEventEmitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<EventListener<never>>>();
  readonly #onListenerError: (error: unknown, eventName: PropertyKey) => void;

  constructor(config?: { onListenerError?: (error: unknown, eventName: PropertyKey) => void }) {
    this.#onListenerError =
      config?.onListenerError ??
      ((error, eventName) => {
        console.error(`aintern: a '${String(eventName)}' listener threw`, error);
      });
  }

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof Events>(eventName: K, listener: EventListener<Events[K]>): () => void {
    let set = this.#listeners.get(eventName);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(eventName, set);
    }
    set.add(listener as EventListener<never>);
    return () => this.off(eventName, listener);
  }

  /** Adds a listener that is removed after its first call. */
  once<K extends keyof Events>(eventName: K, listener: EventListener<Events[K]>): () => void {
    const off = this.on(eventName, (event) => {
      off();
      listener(event);
    });
    return off;
  }

  /** Removes a listener added with {@link on}. */
  off<K extends keyof Events>(eventName: K, listener: EventListener<Events[K]>): void {
    const set = this.#listeners.get(eventName);
    if (set === undefined) return;
    set.delete(listener as EventListener<never>);
    if (set.size === 0) this.#listeners.delete(eventName);
  }

  /** Whether any listener is registered for `eventName` (lets hot paths skip building events). */
  hasListeners<K extends keyof Events>(eventName: K): boolean {
    return this.#listeners.has(eventName);
  }

  /** The number of listeners for `eventName`. */
  listenerCount<K extends keyof Events>(eventName: K): number {
    return this.#listeners.get(eventName)?.size ?? 0;
  }

  /** Calls every listener of `eventName` with `event`, in the order they were added. */
  emit<K extends keyof Events>(eventName: K, event: Events[K]): void {
    const set = this.#listeners.get(eventName);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as EventListener<Events[K]>)(event);
      } catch (error) {
        this.#onListenerError(error, eventName);
      }
    }
  }

  /** Removes every listener of every event. */
  removeAllListeners(): void {
    this.#listeners.clear();
  }
}
