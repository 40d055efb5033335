// Pause and unpause: suspend or resume the domain's vCPUs. The VMI's Paused condition is not
// written here: libvirt's suspended/resumed events make the VMI controller look at the domain and
// report it (vmi/vmi-status.ts), as it does for a pause from any other source.
import { DomainState } from "../../libvirt/index.js";
import { domainFailure } from "./domain-errors.js";
import type { LocatedDomain } from "./vmi-domain-locator.js";

/** Suspends (`paused`) or resumes the domain; already in that state is success. */
export async function setPaused(located: LocatedDomain, paused: boolean): Promise<void> {
  const isPaused = located.state === DomainState.Paused;
  if (isPaused === paused) return;
  try {
    if (paused) await located.handle.suspend();
    else await located.handle.resume();
  } catch (error) {
    throw domainFailure(paused ? "pause the VMI" : "unpause the VMI", error);
  }
}
