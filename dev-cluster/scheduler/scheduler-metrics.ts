import { Counter, type Registry } from "prom-client";

export type AttemptResult = "scheduled" | "unschedulable" | "error";

/** kube-scheduler's attempt counter, pre-initialised for every result so the series exist from the start. */
export class SchedulerMetrics {
  readonly #attempts: Counter<"result" | "profile">;
  readonly #profile: string;

  constructor(registry: Registry, profile: string) {
    this.#profile = profile;
    this.#attempts = new Counter({
      name: "scheduler_schedule_attempts_total",
      help: "Number of attempts to schedule pods, by the result.",
      labelNames: ["result", "profile"],
      registers: [registry],
    });
    for (const result of ["scheduled", "unschedulable", "error"] as const) {
      this.#attempts.labels({ result, profile }).inc(0);
    }
  }

  attempt(result: AttemptResult): void {
    this.#attempts.labels({ result, profile: this.#profile }).inc();
  }
}
