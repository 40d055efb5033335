// One interactive console per VM, as in KubeVirt: a new connection takes the console over, and the
// one it replaces is told why (virtctl prints the reason) before its libvirt stream is dropped.
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { closeReason } from "./websocket-bridge.js";

/** The close code a console connection gets when another connection takes its console over. */
export const CONSOLE_TAKEN_OVER_CODE = 4001;
export const CONSOLE_TAKEN_OVER_REASON = "the console was taken over by another connection";

interface Session {
  readonly ws: WebSocket;
  readonly stream: Duplex;
}

export class ConsoleSessions {
  readonly #byVm = new Map<string, Session>();

  /**
   * Ends the console connection of VM `uid`, if there is one, so that a new one can open the
   * console: its WebSocket first (so it closes with the takeover code, not with the stream's end),
   * then its libvirt stream.
   */
  takeOver(uid: string): void {
    const previous = this.#byVm.get(uid);
    if (previous === undefined) return;
    this.#byVm.delete(uid);
    previous.ws.close(CONSOLE_TAKEN_OVER_CODE, closeReason(CONSOLE_TAKEN_OVER_REASON));
    previous.stream.destroy();
  }

  /** Records the console connection of VM `uid`; it is forgotten when its WebSocket closes. */
  add(uid: string, ws: WebSocket, stream: Duplex): void {
    const session = { ws, stream };
    this.#byVm.set(uid, session);
    ws.once("close", () => {
      if (this.#byVm.get(uid) === session) this.#byVm.delete(uid);
    });
  }

  get size(): number {
    return this.#byVm.size;
  }
}
