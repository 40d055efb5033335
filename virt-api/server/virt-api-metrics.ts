/**
 * virt-api's own metrics, on the registry /metrics serves (next to the informers' runtime
 * metrics). No per-object labels: a label per VM would grow without bound.
 */
import { Counter, Gauge, type Registry } from "prom-client";

export const SUBRESOURCES = [
  "start",
  "stop",
  "restart",
  "pause",
  "unpause",
  "guestosinfo",
  "userlist",
  "filesystemlist",
  "console",
  "vnc",
  "portforward",
  "addvolume",
  "removevolume",
  "expand-spec",
  "expand-vm-spec",
] as const;
export type SubresourceName = (typeof SUBRESOURCES)[number];
/** The subresources that are WebSocket streams. */
export type StreamName = Extract<SubresourceName, "console" | "vnc" | "portforward">;

export class VirtApiMetrics {
  readonly #requests: Counter<"subresource" | "code">;
  readonly #streams: Gauge<"subresource">;
  readonly #admissions: Counter<"webhook" | "allowed">;

  constructor(registry: Registry) {
    this.#requests = new Counter({
      name: "kubevirt_virt_api_subresource_requests_total",
      help: "Subresource requests answered, by subresource and HTTP code (101 for an upgraded stream).",
      labelNames: ["subresource", "code"],
      registers: [registry],
    });
    this.#streams = new Gauge({
      name: "kubevirt_virt_api_active_streams",
      help: "Open streams right now: console and VNC proxied to virt-handler, port-forward tunnels to guests.",
      labelNames: ["subresource"],
      registers: [registry],
    });
    this.#admissions = new Counter({
      name: "kubevirt_virt_api_admission_reviews_total",
      help: "Admission reviews answered, by webhook path and whether the object was allowed.",
      labelNames: ["webhook", "allowed"],
      registers: [registry],
    });
    // Series exist before the first event, so a dashboard shows 0 rather than nothing.
    for (const subresource of ["console", "vnc", "portforward"]) this.#streams.set({ subresource }, 0);
  }

  request(subresource: SubresourceName, code: number): void {
    this.#requests.inc({ subresource, code: String(code) });
  }

  streamOpened(subresource: StreamName): () => void {
    this.#streams.inc({ subresource });
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.#streams.dec({ subresource });
    };
  }

  admissionReview(webhook: string, allowed: boolean): void {
    this.#admissions.inc({ webhook, allowed: String(allowed) });
  }
}
