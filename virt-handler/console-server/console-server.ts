// virt-handler's console server (KubeVirt's port 8186): HTTPS with mutual TLS, where only virt-api
// may connect. Serial console and VNC are WebSockets of raw bytes; pause and unpause are PUTs.
// It starts serving once TLS material exists (the Secret virt-operator issues) and switches
// certificates on rotation without dropping a connection. Health and readiness do not wait for it:
// the VMs of the node are managed with or without a console.
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { TLSSocket } from "node:tls";
import type { Logger } from "pino";
import { type WebSocket, WebSocketServer } from "ws";
import {
  Backoff,
  DEFAULT_PING_INTERVAL_MS,
  keepWebSocketAlive,
  type Runnable,
  refuseUpgrade,
  sleep,
  systemClock,
} from "../../runtime/index.js";
import { firstMaterial, type TlsMaterial, type TlsMaterialSource } from "../../runtime/tls/tls-material.js";
import { requireVirtApi } from "./client-identity.js";
import { openVmiConsole } from "./console-endpoint.js";
import { ConsoleSessions } from "./console-sessions.js";
import { guestAgentAnswer } from "./guest-agent-endpoints.js";
import { asHttpError, statusOf } from "./http-status.js";
import { setPaused } from "./pause-endpoint.js";
import { checkMethod, type Route, routeOf } from "./routes.js";
import type { DomainLocator, LocatedDomain } from "./vmi-domain-locator.js";
import { connectVnc } from "./vnc-endpoint.js";
import { bridgeWebSocket, CLOSE_CODES, DEFAULT_WATER_MARKS } from "./websocket-bridge.js";

/** KubeVirt's console server port. */
export const DEFAULT_CONSOLE_PORT = 8186;

export interface ConsoleServerOptions {
  readonly host: string;
  /** 0: any free port (see `address`). */
  readonly port: number;
  readonly tls: TlsMaterialSource;
  /** Where the material comes from, for the warning while there is none. */
  readonly tlsOrigin: string;
  readonly domains: DomainLocator;
  readonly log: Logger;
  /** Between WebSocket pings (default 15 s); two unanswered pings end a connection. */
  readonly pingIntervalMs?: number;
  /** Bytes queued on a WebSocket at which reading its stream stops, and at which it resumes. */
  readonly waterMarks?: { readonly highWaterMark: number; readonly lowWaterMark: number };
}

/** A console or VNC stream, opened for the VMI with this uid. */
interface OpenedStream {
  readonly uid: string;
  readonly stream: Duplex;
}

export class ConsoleServer implements Runnable {
  readonly name = "console-server";
  readonly needsLeaderElection = false;
  readonly #options: ConsoleServerOptions;
  readonly #log: Logger;
  readonly #sessions = new ConsoleSessions();
  readonly #websockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  #address: AddressInfo | undefined;

  constructor(options: ConsoleServerOptions) {
    this.#options = options;
    this.#log = options.log.child({ component: "console-server" });
  }

  /** Where it listens, once it does. */
  get address(): { readonly host: string; readonly port: number } | undefined {
    return this.#address && { host: this.#address.address, port: this.#address.port };
  }

  async run(signal: AbortSignal): Promise<void> {
    const material = await this.#firstMaterial(signal);
    if (material === undefined) return;
    const server = this.#createServer(material);
    const stopFollowing = this.#options.tls.onChange((next) => this.#rotate(server, next));
    try {
      if (!(await this.#listen(server, signal))) return;
      const address = server.address() as AddressInfo;
      this.#address = address;
      this.#log.info({ host: address.address, port: address.port }, "console server listening");
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    } finally {
      stopFollowing();
      await this.#close(server);
    }
  }

  /**
   * Listens, retrying with backoff while the port cannot be had (taken, say): the handler's other
   * work goes on meanwhile. False when stopped first.
   */
  async #listen(server: Server, signal: AbortSignal): Promise<boolean> {
    const backoff = new Backoff({ initialMs: 1_000, maxMs: 30_000 });
    while (!signal.aborted) {
      try {
        server.listen(this.#options.port, this.#options.host);
        await once(server, "listening", { signal });
        return true;
      } catch (error) {
        if (signal.aborted) break;
        server.close(); // leaves the failed listen behind, so the next one starts clean
        const retryInMs = backoff.next();
        this.#log.error(
          { err: error, host: this.#options.host, port: this.#options.port, retryInMs },
          "the console server cannot listen",
        );
        await sleep(systemClock, retryInMs, signal);
      }
    }
    return false;
  }

  /** The material to start with: at once if it is there, else once the Secret gives one. */
  #firstMaterial(signal: AbortSignal): Promise<TlsMaterial | undefined> {
    if (this.#options.tls.current() === undefined) {
      this.#log.warn(
        { secret: this.#options.tlsOrigin },
        "no TLS certificate for the console server yet: consoles, VNC and pause are unavailable until it exists",
      );
    }
    return firstMaterial(this.#options.tls, signal);
  }

  #createServer(material: TlsMaterial): Server {
    const server = createServer({
      ...secureContextOf(material),
      requestCert: true,
      rejectUnauthorized: true,
    });
    server.on("request", (request, response) => void this.#onRequest(request, response));
    server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.#onUpgrade(request, socket, head);
    });
    server.on("tlsClientError", (error) => this.#log.debug({ err: error }, "TLS handshake refused"));
    return server;
  }

  #rotate(server: Server, material: TlsMaterial): void {
    try {
      server.setSecureContext(secureContextOf(material));
      this.#log.info("console server certificate rotated");
    } catch (error) {
      this.#log.error({ err: error }, "cannot use the rotated certificate: keeping the previous one");
    }
  }

  async #onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const route = this.#authorize(request, false);
      const located = this.#options.domains.locate(route.namespace, route.name);
      const { subresource } = route;
      try {
        if (subresource === "guestosinfo" || subresource === "userlist" || subresource === "filesystemlist") {
          const body = JSON.stringify(await guestAgentAnswer(located, subresource));
          response.writeHead(200, { "Content-Type": "application/json" }).end(body);
          return;
        }
        await setPaused(located, subresource === "pause");
      } finally {
        located.handle.free();
      }
      this.#log.info({ namespace: route.namespace, name: route.name }, `VMI ${subresource}d`);
      response.writeHead(200).end();
    } catch (error) {
      const refusal = asHttpError(error);
      response
        .writeHead(refusal.code, { "Content-Type": "application/json" })
        .end(JSON.stringify(statusOf(refusal)));
    }
  }

  async #onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let route: Route;
    let opened: OpenedStream;
    try {
      route = this.#authorize(request, true);
      const located = this.#options.domains.locate(route.namespace, route.name);
      try {
        opened = { uid: located.uid, stream: await this.#openStream(route, located) };
      } finally {
        located.handle.free();
      }
    } catch (error) {
      refuseUpgrade(socket, statusOf(asHttpError(error)));
      return;
    }
    // The stream is open before the upgrade, so a failure can still be an HTTP status; a client
    // that went away meanwhile, or goes away during the upgrade, must not leave it open.
    if (socket.destroyed) {
      opened.stream.destroy();
      return;
    }
    const dropStream = (): void => {
      opened.stream.destroy();
    };
    socket.once("close", dropStream);
    this.#websockets.handleUpgrade(request, socket, head, (ws) => {
      socket.off("close", dropStream);
      this.#serve(route, ws, opened);
    });
  }

  async #openStream(route: Route, located: LocatedDomain): Promise<Duplex> {
    if (route.subresource === "vnc") return connectVnc(located);
    return openVmiConsole(located, this.#sessions);
  }

  #serve(route: Route, ws: WebSocket, { uid, stream }: OpenedStream): void {
    const console = route.subresource === "console";
    const log = this.#log.child({ namespace: route.namespace, name: route.name, stream: route.subresource });
    if (console) this.#sessions.add(uid, ws, stream);
    bridgeWebSocket(ws, stream, {
      ...(this.#options.waterMarks ?? DEFAULT_WATER_MARKS),
      log,
      endReason: console ? "the console ended (the VM stopped)" : "the VNC server closed the connection",
    });
    keepWebSocketAlive(ws, this.#options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS);
    log.info("connected");
    ws.once("close", (code, reason) => log.info({ code, reason: reason.toString() }, "disconnected"));
  }

  /** Route, method and caller; throws the HttpError to answer with. */
  #authorize(request: IncomingMessage, upgrade: boolean): Route {
    requireVirtApi(request.socket as TLSSocket);
    const route = routeOf(request.url);
    checkMethod(route, request.method, upgrade);
    return route;
  }

  /** Stops listening and ends every connection (the VMs go on; their consoles can be opened again). */
  async #close(server: Server): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const ws of this.#websockets.clients) ws.close(CLOSE_CODES.goingAway, "virt-handler is stopping");
    server.closeAllConnections();
    const lingering = setTimeout(() => {
      for (const ws of this.#websockets.clients) ws.terminate();
    }, 1_000);
    await closed;
    clearTimeout(lingering);
    this.#address = undefined;
  }
}

function secureContextOf(material: TlsMaterial): { cert: string; key: string; ca: string } {
  return { cert: material.certPem, key: material.keyPem, ca: material.caPem };
}
