/**
 * A clock that reads the system's time plus an offset a test moves forward: certificates can
 * be made due for renewal, or a CA old, without waiting. Timers run on the system's time (a
 * delay is a delay), so a requeue computed from the shifted time fires when it would have.
 */
import { type Clock, systemClock } from "../../runtime/index.js";

export class ShiftedClock implements Clock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  schedule(callback: () => void, delayMs: number): () => void {
    return systemClock.schedule(callback, delayMs);
  }

  /** Moves the clock so that now() reads `timeMs` (never backwards). */
  advanceTo(timeMs: number): void {
    this.#offsetMs = Math.max(this.#offsetMs, timeMs - Date.now());
  }
}
