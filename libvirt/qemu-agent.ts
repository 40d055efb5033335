// virDomainQemuAgentCommand (libvirt-qemu.so.0): one JSON command to the guest agent, its JSON answer.
import { lastError } from "./errors.js";
import { type Pointer, qemuNative, takeString } from "./ffi.js";

/** Sends `command` (qemu-ga's JSON) and returns the agent's reply text; blocks up to `timeoutSeconds`. */
export function runAgentCommand(domain: Pointer, command: string, timeoutSeconds: number): string {
  const reply = qemuNative.domainQemuAgentCommand(domain, command, timeoutSeconds, 0);
  if (reply === null) throw lastError("virDomainQemuAgentCommand");
  return takeString(reply) ?? "";
}
