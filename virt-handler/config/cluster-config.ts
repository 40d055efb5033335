// Follows the KubeVirt CR live: the current configuration is recomputed from the informer's cache
// on every change of a KubeVirt object, and listeners hear about changes that matter.
import type { SharedInformer } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import {
  configChanged,
  DEFAULT_HANDLER_CONFIG,
  type HandlerConfig,
  handlerConfigFrom,
} from "./handler-config.js";

export type ConfigListener = (config: HandlerConfig, previous: HandlerConfig) => void;

export class ClusterConfig {
  readonly #informer: SharedInformer<KubeVirt>;
  readonly #namespace: string;
  readonly #listeners = new Set<ConfigListener>();
  #current: HandlerConfig = DEFAULT_HANDLER_CONFIG;

  constructor(informer: SharedInformer<KubeVirt>, namespace: string) {
    this.#informer = informer;
    this.#namespace = namespace;
    const refresh = (): void => this.#refresh();
    informer.addEventHandler({ onAdd: refresh, onUpdate: refresh, onDelete: refresh });
  }

  /** The configuration now (KubeVirt's defaults until the informer has seen a CR). */
  current(): HandlerConfig {
    return this.#current;
  }

  /** Called after every change of the configuration; returns a function that unsubscribes. */
  onChange(listener: ConfigListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #refresh(): void {
    const next = handlerConfigFrom(this.#informer.list({ namespace: this.#namespace }), this.#namespace);
    const previous = this.#current;
    if (!configChanged(previous, next)) return;
    this.#current = next;
    for (const listener of [...this.#listeners]) listener(next, previous);
  }
}
