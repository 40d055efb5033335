// The serial console of a VMI: libvirt's console stream of its domain, opened with the force flag
// after the previous connection was told it is being replaced.
import type { Duplex } from "node:stream";
import type { ConsoleSessions } from "./console-sessions.js";
import { domainFailure } from "./domain-errors.js";
import type { LocatedDomain } from "./vmi-domain-locator.js";

/** libvirt reads this much ahead of a slow reader before it stops (and the guest waits). */
const CONSOLE_READ_AHEAD_BYTES = 64 * 1024;

export function openVmiConsole(located: LocatedDomain, sessions: ConsoleSessions): Duplex {
  sessions.takeOver(located.uid);
  try {
    return located.handle.openConsole({ force: true, highWaterMark: CONSOLE_READ_AHEAD_BYTES });
  } catch (error) {
    throw domainFailure("open the console", error);
  }
}
