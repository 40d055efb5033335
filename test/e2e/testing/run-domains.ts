// The libvirt side of a run, through our binding on qemu:///system: the domains of the run's
// namespace (virt-handler names them `<namespace>_<name>`), their QEMU pids, their consoles, and
// their removal when a run ends.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  Connection,
  type ConsoleStream,
  type Domain,
  DomainState,
  ErrorCode,
  LibvirtError,
} from "../../../libvirt/index.js";
import { ConsoleTranscript, typeLine } from "../../libvirt/testing/console-transcript.js";
import { pollUntil } from "./poll.js";

const LIBVIRT_URI = "qemu:///system";
/** libvirt's QEMU logs outlive their domains (stdio_handler "file", see scripts/setup-host.mjs). */
const QEMU_LOG_DIR = "/var/log/libvirt/qemu";

/** A guest's serial console, attached while the guest boots. */
export interface GuestConsole {
  readonly transcript: ConsoleTranscript;
  /** Types a line at the guest's shell. */
  type(line: string): Promise<void>;
  /** Writes bytes as typed, without an Enter (the console benchmark's single keys). */
  write(bytes: string): Promise<void>;
  close(): void;
}

export class RunDomains {
  readonly namespace: string;
  readonly #connection: Connection;
  readonly #consoles = new Set<ConsoleStream>();

  private constructor(namespace: string, connection: Connection) {
    this.namespace = namespace;
    this.#connection = connection;
  }

  static async open(namespace: string): Promise<RunDomains> {
    return new RunDomains(namespace, await Connection.open(LIBVIRT_URI, { reconnect: false }));
  }

  domainName(vmName: string): string {
    return `${this.namespace}_${vmName}`;
  }

  /** The names of the run's domains, defined or running. */
  names(): string[] {
    const names: string[] = [];
    for (const domain of this.#connection.listAllDomains()) {
      if (domain.name.startsWith(`${this.namespace}_`)) names.push(domain.name);
      domain.free();
    }
    return names.sort();
  }

  /** Names of the run's domains that run. */
  runningNames(): string[] {
    return this.names().filter((name) => this.stateOf(name) === DomainState.Running);
  }

  stateOf(name: string): DomainState | undefined {
    const domain = this.#connection.findDomainByName(name);
    if (domain === null) return undefined;
    try {
      return domain.state().state;
    } finally {
      domain.free();
    }
  }

  exists(name: string): boolean {
    return this.stateOf(name) !== undefined;
  }

  /** QEMU's pid, from the pid file libvirt keeps while the domain runs. */
  qemuPid(name: string): number | undefined {
    try {
      return Number(readFileSync(`/run/libvirt/qemu/${name}.pid`, "utf8").trim());
    } catch {
      return undefined;
    }
  }

  /** libvirt's id of the running domain: a new QEMU gets a new id. */
  domainId(name: string): number | null | undefined {
    const domain = this.#connection.findDomainByName(name);
    if (domain === null) return undefined;
    try {
      return domain.id();
    } finally {
      domain.free();
    }
  }

  /**
   * Waits for the domain to run (other than `notId`, a previous incarnation) and attaches to its
   * console at once: the guest prints its banner seconds later under TCG, so nothing is missed.
   */
  async attachConsole(name: string, options: { timeoutMs: number; notId?: number }): Promise<GuestConsole> {
    const domain = await pollUntil(
      `the domain ${name} to run${options.notId === undefined ? "" : ` again (not as id ${options.notId})`}`,
      () => this.#runningDomain(name, options.notId),
      { timeoutMs: options.timeoutMs, intervalMs: 20 },
    );
    try {
      // QEMU runs a moment before libvirt has given the serial port its pty: retry until it has.
      const stream = await pollUntil(
        `the console of ${name} to open`,
        () => {
          try {
            return domain.openConsole({ force: true });
          } catch {
            return undefined;
          }
        },
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      this.#consoles.add(stream);
      const transcript = new ConsoleTranscript(stream);
      return {
        transcript,
        type: (line) => typeLine(stream, line),
        write: (bytes) =>
          new Promise((resolve, reject) => stream.write(bytes, (err) => (err ? reject(err) : resolve()))),
        close: () => {
          this.#consoles.delete(stream);
          stream.destroy();
        },
      };
    } finally {
      domain.free();
    }
  }

  #runningDomain(name: string, notId: number | undefined): Domain | undefined {
    const domain = this.#connection.findDomainByName(name);
    if (domain === null) return undefined;
    let running = false;
    try {
      running =
        domain.state().state === DomainState.Running && (notId === undefined || domain.id() !== notId);
    } catch {
      // Undefined between the lookup and the query (virt-handler replaces the domain): look again.
    }
    if (running) return domain;
    domain.free();
    return undefined;
  }

  /** Destroys and undefines every domain of the run, and removes their QEMU logs; returns what it removed. */
  async removeAll(): Promise<string[]> {
    const removed: string[] = [];
    for (const name of this.names()) {
      const domain = this.#connection.findDomainByName(name);
      if (domain === null) continue;
      try {
        if (domain.isActive()) {
          await domain.destroy().catch((error: unknown) => {
            // It stopped (or went) between the look and the destroy: a guest shutting down.
            if (!LibvirtError.is(error, ErrorCode.OperationInvalid, ErrorCode.NoDomain)) throw error;
          });
        }
        await domain.undefine().catch((error: unknown) => {
          if (!LibvirtError.is(error, ErrorCode.NoDomain)) throw error; // a transient one went with destroy
        });
        removed.push(`domain ${name}`);
      } finally {
        domain.free();
      }
    }
    for (const file of readdirSync(QEMU_LOG_DIR)) {
      if (file.startsWith(`${this.namespace}_`)) rmSync(join(QEMU_LOG_DIR, file), { force: true });
    }
    return removed;
  }

  async close(): Promise<void> {
    for (const stream of this.#consoles) stream.destroy();
    this.#consoles.clear();
    await this.#connection.close();
  }
}
