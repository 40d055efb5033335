import { EventEmitter } from "node:events";
import {
  type AgentLifecycleEvent,
  type AgentLifecycleListener,
  type AgentLifecycleRegistration,
  registerAgentLifecycle,
} from "./agent-lifecycle.js";
import { BlockingPool } from "./blocking-pool.js";
import { type CallbackErrorHandler, NativeCallback, warnOnCallbackError } from "./callbacks.js";
import type { ConsoleStream } from "./console.js";
import { Domain, type DomainOwner } from "./domain.js";
import type { DomainStateInfo } from "./domain-queries.js";
import { ErrorCode, ErrorDomain, ErrorLevel } from "./error-codes.js";
import { check, checkPointer, LibvirtError, lastError } from "./errors.js";
import { EventLoop } from "./event-loop.js";
import type { LifecycleEvent, LifecycleListener, Subscription } from "./events.js";
import { callbackTypes, native, type Pointer, takePointerArray } from "./ffi.js";
import { type CloseReason, DefineFlags, DomainXMLFlags, ListDomainsFlags } from "./flags.js";
import {
  type NodeInfo,
  readCapabilities,
  readHostname,
  readNodeInfo,
  readUri,
  readVersions,
  type Versions,
} from "./host-info.js";
import { type LifecycleRegistration, registerLifecycle } from "./lifecycle-registration.js";
import { type ReconnectOptions, Reconnector } from "./reconnector.js";

export interface KeepAliveOptions {
  /** Seconds between keepalive messages. */
  readonly intervalSeconds: number;
  /** Unanswered messages after which the connection is closed (and reconnection starts). */
  readonly count: number;
}

export interface ConnectionOptions {
  readonly readOnly?: boolean;
  /** Keepalive for remote connections; default 5 s × 3. `false` turns it off. */
  readonly keepAlive?: KeepAliveOptions | false;
  /** Re-open the connection when it is lost (e.g. libvirtd restarts); default on. `false` turns it off. */
  readonly reconnect?: ReconnectOptions | false;
  /** Where exceptions thrown by event listeners go; default: a process warning. */
  readonly onCallbackError?: CallbackErrorHandler;
  /** Runs the calls that can block; default: a process-wide pool of 4 worker threads. */
  readonly pool?: BlockingPool;
}

/** Connection status events. */
export interface ConnectionEvents {
  /** libvirt closed the connection (not at our request); reconnection starts if enabled. */
  disconnected: [reason: CloseReason];
  /** A new connection is open and every event subscription is registered again. */
  reconnected: [];
  /** One reconnection attempt failed; another follows. */
  reconnectFailed: [error: Error, attempt: number];
}

const DEFAULT_KEEPALIVE: KeepAliveOptions = { intervalSeconds: 5, count: 3 };

/**
 * A connection to a libvirt driver (`qemu:///system`, `test:///default`, …). Opening one registers
 * libvirt's default event loop first (once per process) and keeps it pumping until the connection is
 * closed. Event subscriptions belong to this object, not to the libvirt connection underneath: after a
 * reconnection they are registered again, and Domain objects look themselves up again.
 */
export class Connection extends EventEmitter<ConnectionEvents> implements DomainOwner {
  readonly requestedUri: string;
  readonly pool: BlockingPool;
  readonly onCallbackError: CallbackErrorHandler;
  readonly #options: ConnectionOptions;
  readonly #loop: EventLoop;
  readonly #lifecycleListeners = new Set<LifecycleListener>();
  /** Open consoles: libvirt never tells a stream its connection went away, so we end them. */
  readonly #consoles = new Set<ConsoleStream>();
  readonly #reconnector: Reconnector | null;
  #pointer: Pointer | null;
  #generation = 0;
  #lifecycle: LifecycleRegistration | null = null;
  readonly #agentListeners = new Set<AgentLifecycleListener>();
  #agentLifecycle: AgentLifecycleRegistration | null = null;
  #closeCallback: NativeCallback | null = null;
  #closed = false;

  private constructor(
    uri: string,
    pointer: Pointer,
    loop: EventLoop,
    options: ConnectionOptions,
    pool: BlockingPool,
  ) {
    super();
    this.requestedUri = uri;
    this.pool = pool;
    this.onCallbackError = options.onCallbackError ?? warnOnCallbackError;
    this.#options = options;
    this.#loop = loop;
    this.#pointer = pointer;
    this.#reconnector =
      options.reconnect === false
        ? null
        : new Reconnector(
            options.reconnect ?? {},
            () => this.#reopen(),
            (err, attempt) => {
              this.emit("reconnectFailed", err, attempt);
            },
          );
    this.#attach(pointer);
  }

  /** Opens a connection; the call itself runs on a worker thread (connecting can take a while). */
  static async open(uri: string, options: ConnectionOptions = {}): Promise<Connection> {
    const loop = EventLoop.default(); // before the first virConnectOpen, or the connection gets no events
    const pool = options.pool ?? BlockingPool.default();
    loop.acquire();
    try {
      const pointer = await pool.run("open", uri, options.readOnly ?? false);
      return new Connection(uri, pointer, loop, options, pool);
    } catch (err) {
      loop.release();
      throw err;
    }
  }

  get generation(): number {
    return this.#generation;
  }

  get connected(): boolean {
    return this.#pointer !== null;
  }

  /** The live libvirt connection; throws while disconnected or after close. */
  pointer(): Pointer {
    if (this.#pointer !== null) return this.#pointer;
    const state = this.#closed ? "closed" : "lost (reconnecting)";
    throw new LibvirtError("virConnect", {
      code: ErrorCode.NoConnect,
      domain: ErrorDomain.Rpc,
      level: ErrorLevel.Error,
      message: `the connection to ${this.requestedUri} is ${state}`,
    });
  }

  /** Part of DomainOwner: consoles end with a NoConnect error when this connection is lost or closed. */
  trackConsole(console: ConsoleStream): void {
    this.#consoles.add(console);
    console.once("close", () => this.#consoles.delete(console));
  }

  #endConsoles(why: string): void {
    for (const console of this.#consoles) {
      console.destroy(
        new LibvirtError("virStreamRecv", {
          code: ErrorCode.NoConnect,
          domain: ErrorDomain.Rpc,
          level: ErrorLevel.Error,
          message: `the console's connection to ${this.requestedUri} ${why}`,
        }),
      );
    }
    this.#consoles.clear();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#reconnector?.stop();
    this.#endConsoles("was closed");
    const pointer = this.#pointer;
    this.#pointer = null;
    if (pointer !== null) {
      this.#detach(pointer, true);
      await this.pool.run("close", pointer).catch(() => 0);
    }
    this.#loop.release();
  }

  /** True while libvirt considers the connection usable (false for a remote one whose peer is gone). */
  isAlive(): boolean {
    return this.#pointer !== null && native.connectIsAlive(this.#pointer) === 1;
  }

  /** Starts keepalive on a remote connection (kept across reconnections). False when the peer lacks it. */
  setKeepAlive(options: KeepAliveOptions): boolean {
    const result = native.connectSetKeepAlive(this.pointer(), options.intervalSeconds, options.count);
    return check("virConnectSetKeepAlive", result) === 0;
  }

  uri(): string {
    return readUri(this.pointer());
  }

  capabilities(): string {
    return readCapabilities(this.pointer());
  }

  hostname(): string {
    return readHostname(this.pointer());
  }

  nodeInfo(): NodeInfo {
    return readNodeInfo(this.pointer());
  }

  versions(): Versions {
    return readVersions(this.pointer());
  }

  /** Defines (or redefines) a persistent domain from XML. */
  async defineDomain(xml: string, flags: DefineFlags = DefineFlags.None): Promise<Domain> {
    const pointer = await this.pool.run("define", this.pointer(), xml, flags);
    return new Domain(this, pointer);
  }

  /** Throws LibvirtError with `ErrorCode.NoDomain` when there is no such domain. */
  lookupDomainByName(name: string): Domain {
    const pointer = checkPointer("virDomainLookupByName", native.domainLookupByName(this.pointer(), name));
    return new Domain(this, pointer);
  }

  /** Throws LibvirtError with `ErrorCode.NoDomain` when there is no such domain. */
  lookupDomainByUUID(uuid: string): Domain {
    const pointer = checkPointer(
      "virDomainLookupByUUIDString",
      native.domainLookupByUUIDString(this.pointer(), uuid),
    );
    return new Domain(this, pointer);
  }

  /**
   * The domain called `name` with its state and live XML, read on a worker thread (three RPCs
   * that never block this one); null when there is none.
   */
  async readDomainByName(
    name: string,
    xmlFlags: DomainXMLFlags = DomainXMLFlags.None,
  ): Promise<{ domain: Domain; state: DomainStateInfo; xml: string } | null> {
    const snapshot = await this.pool.run("readDomainByName", this.pointer(), name, xmlFlags);
    if (snapshot === null) return null;
    const state = { state: snapshot.state, reason: snapshot.reason } as DomainStateInfo;
    return { domain: new Domain(this, snapshot.domain), state, xml: snapshot.xml };
  }

  /** The domain called `name`, or null when there is none. */
  findDomainByName(name: string): Domain | null {
    try {
      return this.lookupDomainByName(name);
    } catch (err) {
      if (LibvirtError.is(err, ErrorCode.NoDomain)) return null;
      throw err;
    }
  }

  listAllDomains(flags: ListDomainsFlags = ListDomainsFlags.All): Domain[] {
    const out: [Pointer | null] = [null];
    const count = check("virConnectListAllDomains", native.connectListAllDomains(this.pointer(), out, flags));
    return takePointerArray(out[0], count).map((pointer) => new Domain(this, pointer));
  }

  /** Lifecycle events of every domain on this connection, across reconnections. */
  onLifecycle(listener: LifecycleListener): Subscription {
    this.#lifecycleListeners.add(listener);
    if (this.#lifecycle === null && this.#pointer !== null) {
      try {
        this.#lifecycle = registerLifecycle(
          this.#pointer,
          (event) => this.#dispatch(event),
          this.onCallbackError,
        );
      } catch (err) {
        this.#lifecycleListeners.delete(listener);
        throw err;
      }
    }
    return { unsubscribe: () => this.#unsubscribe(listener) };
  }

  #unsubscribe(listener: LifecycleListener): void {
    this.#lifecycleListeners.delete(listener);
    if (this.#lifecycleListeners.size === 0 && this.#lifecycle !== null) {
      this.#lifecycle.deregister();
      this.#lifecycle = null;
    }
  }

  /** Guest agent connect/disconnect events of every domain on this connection, across reconnections. */
  onAgentLifecycle(listener: AgentLifecycleListener): Subscription {
    this.#agentListeners.add(listener);
    if (this.#agentLifecycle === null && this.#pointer !== null) {
      try {
        this.#agentLifecycle = this.#registerAgent(this.#pointer);
      } catch (err) {
        this.#agentListeners.delete(listener);
        throw err;
      }
    }
    return {
      unsubscribe: () => {
        this.#agentListeners.delete(listener);
        if (this.#agentListeners.size > 0 || this.#agentLifecycle === null) return;
        this.#agentLifecycle.deregister();
        this.#agentLifecycle = null;
      },
    };
  }

  #registerAgent(pointer: Pointer): AgentLifecycleRegistration {
    const dispatch = (event: AgentLifecycleEvent): void => {
      for (const listener of [...this.#agentListeners]) {
        try {
          listener(event);
        } catch (err) {
          this.onCallbackError(err, "agent lifecycle listener");
        }
      }
    };
    return registerAgentLifecycle(pointer, dispatch, this.onCallbackError);
  }

  #dispatch(event: LifecycleEvent): void {
    for (const listener of [...this.#lifecycleListeners]) {
      try {
        listener(event);
      } catch (err) {
        this.onCallbackError(err, "lifecycle listener");
      }
    }
  }

  /** Sets up a freshly opened libvirt connection: close callback, keepalive, event registrations. */
  #attach(pointer: Pointer): void {
    this.#closeCallback = this.#registerCloseCallback(pointer);
    const keepAlive = this.#options.keepAlive ?? DEFAULT_KEEPALIVE;
    // Local drivers (test://) have no keepalive; that is not an error worth reporting.
    if (keepAlive !== false) native.connectSetKeepAlive(pointer, keepAlive.intervalSeconds, keepAlive.count);
    if (this.#lifecycleListeners.size > 0) {
      this.#lifecycle = registerLifecycle(pointer, (event) => this.#dispatch(event), this.onCallbackError);
    }
    if (this.#agentListeners.size > 0) this.#agentLifecycle = this.#registerAgent(pointer);
  }

  /** Undoes #attach. On a lost connection the registrations go away with it when it is closed. */
  #detach(pointer: Pointer, alive: boolean): void {
    if (alive) this.#lifecycle?.deregister();
    this.#lifecycle = null;
    if (alive) this.#agentLifecycle?.deregister();
    this.#agentLifecycle = null;
    if (this.#closeCallback !== null && alive) {
      native.connectUnregisterCloseCallback(pointer, this.#closeCallback.pointer);
    }
    this.#closeCallback = null;
  }

  #registerCloseCallback(pointer: Pointer): NativeCallback | null {
    const callback = NativeCallback.register(
      callbackTypes.close,
      "connection close callback",
      this.onCallbackError,
      undefined,
      (closed: Pointer, reason: number) => this.#onClosed(closed, reason),
    );
    if (native.connectRegisterCloseCallback(pointer, callback.pointer, null, callback.freePointer) < 0) {
      callback.release();
      const err = lastError("virConnectRegisterCloseCallback");
      if (err.code === ErrorCode.NoSupport) return null;
      throw err;
    }
    return callback;
  }

  #onClosed(closed: Pointer, reason: CloseReason): void {
    if (this.#closed || closed !== this.#pointer) return;
    this.#pointer = null;
    this.#detach(closed, false);
    // Drop our reference off the main thread; the dead connection cannot be used any more anyway.
    this.pool.run("close", closed).catch(() => 0);
    this.#endConsoles("was lost");
    this.emit("disconnected", reason);
    this.#reconnector?.start();
  }

  /** One reconnection attempt (called by the Reconnector until it succeeds). */
  async #reopen(): Promise<void> {
    const pointer = await this.pool.run("open", this.requestedUri, this.#options.readOnly ?? false);
    if (this.#closed) {
      await this.pool.run("close", pointer).catch(() => 0);
      return;
    }
    this.#pointer = pointer;
    this.#generation += 1;
    try {
      this.#attach(pointer);
    } catch (err) {
      this.#pointer = null;
      this.#detach(pointer, true);
      await this.pool.run("close", pointer).catch(() => 0);
      throw err;
    }
    this.emit("reconnected");
  }
}
