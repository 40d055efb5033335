import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { Backoff, type Clock } from "../../../runtime/index.js";
import type { PodIdentity } from "../kinds.js";
import { type TokenRequester, TokenRequestUnsupportedError } from "./token-requester.js";

export interface ServiceAccountVolumeOptions {
  /** Where token, ca.crt and namespace go (what the process finds in KUBERNETES_SERVICE_ACCOUNT_DIR). */
  dir: string;
  pod: PodIdentity;
  serviceAccount: string;
  caCertPem: string;
  tokens: TokenRequester;
  clock: Clock;
  log: Logger;
}

/**
 * A pod's in-cluster credentials, laid out as the `kube-api-access` projected volume is at
 * /var/run/secrets/kubernetes.io/serviceaccount: `token`, `ca.crt`, `namespace`. The token is
 * bound to the pod and replaced at 80% of its lifetime (kubelet's rule); files are replaced
 * atomically, so a reader never sees half a token.
 */
export class ServiceAccountVolume {
  readonly dir: string;
  readonly #options: ServiceAccountVolumeOptions;
  readonly #backoff = new Backoff({ initialMs: 1000, maxMs: 300_000 });
  #cancelRefresh: (() => void) | undefined;
  #stopped = false;

  constructor(options: ServiceAccountVolumeOptions) {
    this.dir = options.dir;
    this.#options = options;
  }

  /** Writes ca.crt and namespace, and waits for the first token attempt (which may fail: logged, retried). */
  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    this.#write("ca.crt", this.#options.caCertPem);
    this.#write("namespace", this.#options.pod.namespace);
    await this.#refresh();
  }

  stop(): void {
    this.#stopped = true;
    this.#cancelRefresh?.();
  }

  async #refresh(): Promise<void> {
    if (this.#stopped) return;
    const { tokens, pod, serviceAccount, clock, log } = this.#options;
    const now = clock.now();
    try {
      const token = await tokens.request(pod, serviceAccount, now);
      this.#write("token", token.token);
      this.#backoff.reset();
      this.#schedule(Math.max(1000, (token.expiresAt - now) * 0.8));
    } catch (error) {
      if (!(error instanceof TokenRequestUnsupportedError)) {
        // Said once per pod; the retries (with back-off) are only worth a debug line.
        const level = this.#backoff.failures === 0 ? "warn" : "debug";
        log[level]({ err: error, serviceAccount }, "cannot get the pod's service-account token: retrying");
      }
      this.#schedule(this.#backoff.next());
    }
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#cancelRefresh = this.#options.clock.schedule(() => void this.#refresh(), delayMs);
  }

  #write(name: string, content: string): void {
    const path = join(this.dir, name);
    writeFileSync(`${path}.tmp`, content, { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  }
}
