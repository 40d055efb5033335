import assert from "node:assert/strict";
import type { GuestConsole } from "./run-domains.js";

/** Runs a command at a guest's shell (its serial console) and returns what it printed, up to an end marker. */
export async function guestShell(
  guest: GuestConsole | undefined,
  command: string,
  timeoutMs = 30_000,
): Promise<string> {
  assert.ok(guest, "the guest's console is attached");
  const marker = `end-${Math.random().toString(36).slice(2, 8)}`;
  const from = guest.transcript.text.length;
  // Quoted in two halves, so the echo of the typed line does not contain the marker itself.
  await guest.type(`${command}; echo "${marker.slice(0, 4)}""${marker.slice(4)}"`);
  const end = await guest.transcript.waitFor(marker, timeoutMs, from);
  return guest.transcript.text.slice(from, end);
}
