// The kubelet's image pull back-off, for the containerDisk and kernelBoot images virt-handler pulls
// itself: after a failed pull the VMI shows ErrImagePull with the registry's error, then
// ImagePullBackOff until the next attempt, each wait twice the last (10 s up to 5 min, as the
// kubelet's). Kept in memory per VMI uid: a restarted virt-handler tries again at once, as a
// restarted kubelet does.

export interface ImagePullBackoffOptions {
  readonly initialMs?: number;
  readonly maxMs?: number;
  /** How long ErrImagePull shows before the status turns to ImagePullBackOff. */
  readonly errorShownMs?: number;
}

export interface PullFailure {
  readonly image: string;
  readonly message: string;
  /** When the next pull may be tried (clock milliseconds). */
  readonly retryAt: number;
  /** When the failure happened. */
  readonly failedAt: number;
}

export class ImagePullBackoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly errorShownMs: number;
  readonly #failures = new Map<string, PullFailure & { readonly delayMs: number }>();

  constructor(options: ImagePullBackoffOptions = {}) {
    this.#initialMs = options.initialMs ?? 10_000;
    this.#maxMs = options.maxMs ?? 300_000;
    this.errorShownMs = Math.min(options.errorShownMs ?? 5_000, this.#initialMs);
  }

  /** Records a failed pull; returns it with the time of the next attempt. */
  failed(uid: string, image: string, message: string, now: number): PullFailure {
    const previous = this.#failures.get(uid);
    const delayMs = previous ? Math.min(previous.delayMs * 2, this.#maxMs) : this.#initialMs;
    const failure = { image, message, failedAt: now, retryAt: now + delayMs, delayMs };
    this.#failures.set(uid, failure);
    return failure;
  }

  /** The last failure while its back-off lasts; undefined once a pull may be tried again. */
  backingOff(uid: string, now: number): PullFailure | undefined {
    const failure = this.#failures.get(uid);
    return failure !== undefined && now < failure.retryAt ? failure : undefined;
  }

  /** The VMI's images were pulled, or the VMI went: the next failure starts from the first delay. */
  forget(uid: string): void {
    this.#failures.delete(uid);
  }
}
