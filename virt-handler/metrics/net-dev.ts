// The kernel's per-link counters as /proc/<pid>/net/dev shows them for the network namespace of
// that process (libvirt reads the same file for its interface stats, in its own namespace), and
// how a tap's counters read from the guest's side of it.
import type { NicCounters } from "./domain-sample.js";

/** One link's counters, from the host's side of it. */
export interface LinkCounters {
  readonly rxBytes: number;
  readonly rxPackets: number;
  readonly rxErrors: number;
  readonly rxDrops: number;
  readonly txBytes: number;
  readonly txPackets: number;
  readonly txErrors: number;
  readonly txDrops: number;
}

/** A link's line has 8 receive then 8 transmit columns; these are the ones kept. */
const RECEIVE = { bytes: 0, packets: 1, errors: 2, drops: 3 } as const;
const TRANSMIT_OFFSET = 8;

/** Parses /proc/net/dev: link name → its counters (the two header lines have no "name:"). */
export function parseNetDev(text: string): Map<string, LinkCounters> {
  const links = new Map<string, LinkCounters>();
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const columns = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    if (name === "" || columns.length < 2 * TRANSMIT_OFFSET || columns.some(Number.isNaN)) {
      throw new Error(`unexpected line in /proc/net/dev: ${JSON.stringify(line)}`);
    }
    const column = (index: number) => columns[index] ?? 0;
    links.set(name, {
      rxBytes: column(RECEIVE.bytes),
      rxPackets: column(RECEIVE.packets),
      rxErrors: column(RECEIVE.errors),
      rxDrops: column(RECEIVE.drops),
      txBytes: column(TRANSMIT_OFFSET + RECEIVE.bytes),
      txPackets: column(TRANSMIT_OFFSET + RECEIVE.packets),
      txErrors: column(TRANSMIT_OFFSET + RECEIVE.errors),
      txDrops: column(TRANSMIT_OFFSET + RECEIVE.drops),
    });
  }
  return links;
}

/**
 * A tap's counters as its guest sees them: what the host transmits on the tap is what the guest
 * receives, and the other way round (libvirt swaps them the same way for a domain's taps).
 */
export function guestCountersOfTap(tap: LinkCounters): NicCounters {
  return {
    rxBytes: tap.txBytes,
    rxPackets: tap.txPackets,
    rxErrors: tap.txErrors,
    rxDrops: tap.txDrops,
    txBytes: tap.rxBytes,
    txPackets: tap.rxPackets,
    txErrors: tap.rxErrors,
    txDrops: tap.rxDrops,
  };
}
