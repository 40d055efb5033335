// Talks to a QEMU guest agent over the unix socket QEMU exposes for its virtio-serial port: one JSON
// command, one JSON reply. guest-sync-delimited first, because the agent may still hold a half-read
// command from an earlier client (its protocol's documented way to resynchronise).
import { connect } from "node:net";

export interface GuestAgentReply {
  return?: unknown;
  error?: { class: string; desc: string };
}

/** Sends `command` ({"execute": …}) and resolves with the agent's reply; rejects after `timeoutMs`. */
export function guestAgentCommand(
  socketPath: string,
  command: { execute: string; arguments?: Record<string, unknown> },
  timeoutMs: number,
): Promise<GuestAgentReply> {
  const syncId = Math.floor(Math.random() * 2 ** 31);
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let received = "";
    let synced = false;
    const finish = (error: Error | undefined, reply?: GuestAgentReply) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else if (reply) resolve(reply);
    };
    const timer = setTimeout(
      () => finish(new Error(`the guest agent did not answer ${command.execute} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on("error", (error) =>
      finish(new Error(`guest agent socket ${socketPath}: ${error.message}`, { cause: error })),
    );
    socket.on("connect", () => {
      socket.write(`\xff${JSON.stringify({ execute: "guest-sync-delimited", arguments: { id: syncId } })}\n`);
    });
    socket.on("data", (chunk: Buffer) => {
      // The sync reply is preceded by a 0xff byte; drop everything up to it.
      received += chunk.toString("latin1");
      for (let newline = received.indexOf("\n"); newline >= 0; newline = received.indexOf("\n")) {
        const line = received.slice(0, newline).replace(/^[^{]*/, "");
        received = received.slice(newline + 1);
        if (line === "") continue;
        const reply = JSON.parse(line) as GuestAgentReply;
        if (!synced) {
          if (reply.return !== syncId) continue;
          synced = true;
          socket.write(`${JSON.stringify(command)}\n`);
          continue;
        }
        finish(undefined, reply);
        return;
      }
    });
  });
}
