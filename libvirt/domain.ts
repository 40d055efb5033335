import type { AgentLifecycleListener } from "./agent-lifecycle.js";
import type { BlockingOpName, BlockingOps } from "./blocking-ops.js";
import type { BlockingPool } from "./blocking-pool.js";
import type { CallbackErrorHandler } from "./callbacks.js";
import { type ConsoleOptions, ConsoleStream } from "./console.js";
import {
  type BlockStats,
  type DomainInfo,
  type DomainStateInfo,
  type InterfaceStats,
  type MetadataOptions,
  readBlockStats,
  readInfo,
  readInterfaceStats,
  readMetadata,
  readState,
  readXml,
  type SetMetadataOptions,
  writeCpuShares,
  writeFdAssociation,
  writeMetadata,
} from "./domain-queries.js";
import { check, checkPointer } from "./errors.js";
import type { DomainIdentity, LifecycleListener, Subscription } from "./events.js";
import { native, type Pointer } from "./ffi.js";
import {
  DestroyFlags,
  DomainXMLFlags,
  GuestInfoTypes,
  InterfaceAddressSource,
  type MetadataType,
  type ModificationImpact,
  RebootFlags,
  ShutdownFlags,
  StartFlags,
  UndefineFlags,
} from "./flags.js";
import type { GuestInfo } from "./guest-info.js";
import type { InterfaceAddresses } from "./interface-addresses.js";

/** What a Domain needs from the connection it came from. */
export interface DomainOwner {
  /** Changes each time the connection is re-established; domain pointers of older ones are stale. */
  readonly generation: number;
  /** The live connection pointer; throws while disconnected. */
  pointer(): Pointer;
  readonly pool: BlockingPool;
  readonly onCallbackError: CallbackErrorHandler;
  onLifecycle(listener: LifecycleListener): Subscription;
  onAgentLifecycle(listener: AgentLifecycleListener): Subscription;
  /** Ends the console with an error when the connection is lost (libvirt tells the stream nothing). */
  trackConsole(console: ConsoleStream): void;
}

/** Frees the libvirt reference of a Domain that was dropped without `free()`. */
const leaked = new FinalizationRegistry<{ pointer: Pointer | null }>((held) => {
  if (held.pointer !== null) native.domainFree(held.pointer);
});

/**
 * A libvirt domain. It owns one libvirt reference (`free()` releases it; a forgotten one is released
 * when the object is collected). It is identified by UUID, so it survives reconnection: after the
 * connection is re-established, the next call looks the domain up again on the new connection.
 * Calls that can take long return promises and run on a worker thread; queries are synchronous.
 */
export class Domain {
  readonly uuid: string;
  readonly #owner: DomainOwner;
  readonly #held: { pointer: Pointer | null };
  #generation: number;
  #inFlight = 0;
  /** Pointers replaced while a worker call still used them; freed once no call is in flight. */
  #retired: Pointer[] = [];
  #freed = false;

  /** Takes over one reference to `pointer`. */
  constructor(owner: DomainOwner, pointer: Pointer, identity?: DomainIdentity) {
    this.#owner = owner;
    this.#generation = owner.generation;
    this.#held = { pointer };
    this.uuid = identity?.uuid ?? readUuid(pointer);
    leaked.register(this, this.#held, this);
  }

  get name(): string {
    return native.domainGetName(this.#handle()) ?? "";
  }

  /** The running domain's id, or null when it is not running. */
  id(): number | null {
    const id = native.domainGetID(this.#handle());
    return id === 0xffffffff || id < 0 ? null : id;
  }

  isActive(): boolean {
    return check("virDomainIsActive", native.domainIsActive(this.#handle())) === 1;
  }

  isPersistent(): boolean {
    return check("virDomainIsPersistent", native.domainIsPersistent(this.#handle())) === 1;
  }

  async start(flags: StartFlags = StartFlags.None): Promise<void> {
    await this.#blocking("start", flags);
  }

  /** Asks the guest to power off; `ShutdownFlags.Default` lets the hypervisor choose (ACPI for QEMU). */
  async shutdown(flags: ShutdownFlags = ShutdownFlags.Default): Promise<void> {
    await this.#blocking("shutdown", flags);
  }

  /** Stops the domain at once: SIGTERM then SIGKILL by default, SIGTERM only with `DestroyFlags.Graceful`. */
  async destroy(flags: DestroyFlags = DestroyFlags.Default): Promise<void> {
    await this.#blocking("destroy", flags);
  }

  async reboot(flags: RebootFlags = RebootFlags.Default): Promise<void> {
    await this.#blocking("reboot", flags);
  }

  /** A hard reset, like pressing the reset button. */
  async reset(): Promise<void> {
    await this.#blocking("reset");
  }

  async suspend(): Promise<void> {
    await this.#blocking("suspend");
  }

  async resume(): Promise<void> {
    await this.#blocking("resume");
  }

  /**
   * Adds a device (its XML) to the running guest and/or the persistent definition (ModificationImpact);
   * QEMU hotplugs it. A disk whose source names an fd group needs those files associated first.
   */
  async attachDevice(xml: string, impact: ModificationImpact): Promise<void> {
    await this.#blocking("attachDevice", xml, impact);
  }

  /**
   * Asks for the device with this alias to be removed. For a live guest the removal completes once the
   * guest lets the device go (a device-removed event follows); libvirt waits a few seconds for it.
   */
  async detachDeviceAlias(alias: string, impact: ModificationImpact): Promise<void> {
    await this.#blocking("detachDeviceAlias", alias, impact);
  }

  async undefine(flags: UndefineFlags = UndefineFlags.None): Promise<void> {
    await this.#blocking("undefine", flags);
  }

  state(): DomainStateInfo {
    return readState(this.#handle());
  }

  info(): DomainInfo {
    return readInfo(this.#handle());
  }

  xml(flags: DomainXMLFlags = DomainXMLFlags.None): string {
    return readXml(this.#handle(), flags);
  }

  /** The metadata of `type` (for `Element`, pass the namespace `uri`), or null when there is none. */
  metadata(type: MetadataType, options: MetadataOptions = {}): string | null {
    return readMetadata(this.#handle(), type, options);
  }

  /** Sets metadata; null removes it. For `Element`, pass `key` (the XML prefix) and `uri`. */
  setMetadata(type: MetadataType, value: string | null, options: SetMetadataOptions = {}): void {
    writeMetadata(this.#handle(), type, value, options);
  }

  /**
   * The domain's CPU weight against the node's other domains (`cpu_shares`, cgroup cpu.shares):
   * live, in its persistent config, or both (`ModificationImpact` flags).
   */
  setCpuShares(shares: number, impact: ModificationImpact): void {
    writeCpuShares(this.#handle(), shares, impact);
  }

  /**
   * Associates open files with the domain under `name`, for a disk whose source names that fd group:
   * QEMU gets the files themselves and never opens the path (libvirt 9.0+, over a UNIX socket).
   */
  associateFds(name: string, fds: readonly number[]): void {
    writeFdAssociation(this.#handle(), name, fds);
  }

  /** Guest IP addresses from DHCP leases, the guest agent or the host's ARP table (may take seconds). */
  interfaceAddresses(
    source: InterfaceAddressSource = InterfaceAddressSource.Lease,
  ): Promise<InterfaceAddresses[]> {
    return this.#blocking("interfaceAddresses", source);
  }

  /** What the guest agent reports (OS, users, file systems, …); fails when no agent is connected. */
  guestInfo(types: GuestInfoTypes = GuestInfoTypes.All): Promise<GuestInfo> {
    return this.#blocking("guestInfo", types);
  }

  /**
   * Sends one JSON command to the guest agent (qemu-ga's protocol) and returns its JSON reply text;
   * waits up to `timeoutSeconds` (or an AgentCommandTimeout value). QEMU domains only.
   */
  agentCommand(command: string, timeoutSeconds: number): Promise<string> {
    return this.#blocking("agentCommand", command, timeoutSeconds);
  }

  /** I/O counters of a disk, by target (e.g. "vda") or source path. */
  blockStats(disk: string): BlockStats {
    return readBlockStats(this.#handle(), disk);
  }

  /** Traffic counters of an interface, by host device name or MAC address. */
  interfaceStats(device: string): InterfaceStats {
    return readInterfaceStats(this.#handle(), device);
  }

  /** The domain's console as a Duplex (needs a driver with console streams, e.g. qemu://). */
  openConsole(options: Omit<ConsoleOptions, "onCallbackError"> = {}): ConsoleStream {
    const handle = this.#handle();
    const console = ConsoleStream.open(this.#owner.pointer(), handle, {
      ...options,
      onCallbackError: this.#owner.onCallbackError,
    });
    this.#owner.trackConsole(console);
    return console;
  }

  /** Lifecycle events of this domain only. */
  onLifecycle(listener: LifecycleListener): Subscription {
    return this.#owner.onLifecycle((event) => {
      if (event.domain.uuid === this.uuid) listener(event);
    });
  }

  /** Guest agent connect and disconnect events of this domain only. */
  onAgentLifecycle(listener: AgentLifecycleListener): Subscription {
    return this.#owner.onAgentLifecycle((event) => {
      if (event.domain.uuid === this.uuid) listener(event);
    });
  }

  /** Releases the libvirt reference; the object is unusable afterwards. */
  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    leaked.unregister(this);
    if (this.#held.pointer !== null) this.#retired.push(this.#held.pointer);
    this.#held.pointer = null;
    this.#freeRetired();
  }

  async #blocking<K extends BlockingOpName>(
    op: K,
    ...rest: Parameters<BlockingOps[K]> extends [Pointer, ...infer Tail] ? Tail : never
  ): Promise<ReturnType<BlockingOps[K]>> {
    const handle = this.#handle();
    this.#inFlight += 1;
    try {
      const args = [handle, ...rest] as unknown as Parameters<BlockingOps[K]>;
      return await this.#owner.pool.run(op, ...args);
    } finally {
      this.#inFlight -= 1;
      this.#freeRetired();
    }
  }

  /** The domain pointer for the current connection, looked up again by UUID after a reconnection. */
  #handle(): Pointer {
    if (this.#freed) throw new Error(`domain ${this.uuid} was freed`);
    const connection = this.#owner.pointer(); // throws while the connection is lost
    const current = this.#held.pointer;
    if (current !== null && this.#generation === this.#owner.generation) return current;
    const fresh = checkPointer(
      "virDomainLookupByUUIDString",
      native.domainLookupByUUIDString(connection, this.uuid),
    );
    if (current !== null) this.#retired.push(current);
    this.#held.pointer = fresh;
    this.#generation = this.#owner.generation;
    this.#freeRetired();
    return fresh;
  }

  #freeRetired(): void {
    if (this.#inFlight > 0) return;
    for (const pointer of this.#retired.splice(0)) native.domainFree(pointer);
  }
}

function readUuid(pointer: Pointer): string {
  const buffer = Buffer.alloc(37);
  check("virDomainGetUUIDString", native.domainGetUUIDString(pointer, buffer));
  return buffer.toString("latin1", 0, 36);
}
