/**
 * TCP measurements run inside a pod's network namespace (`ip netns exec NS node tcp-bench.js ...`),
 * one JSON line on stdout each:
 *   sink PORT [BYTES]      listens on PORT; per connection {"bytes", "seconds"} from its first
 *                          byte to its end (the sender's FIN, or BYTES received, for senders
 *                          that never end their side); runs until killed
 *   send HOST PORT BYTES   connects, writes BYTES zeros, ends; {"bytes", "seconds"} from the
 *                          connect to the peer closing (every byte taken by the receiver)
 *   connect HOST PORT N    N sequential connects; {"millis": [...]} each until established
 */
import { connect, createServer } from "node:net";

const [mode, ...args] = process.argv.slice(2);
const CHUNK = Buffer.alloc(64 * 1024);

function elapsedSeconds(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e9;
}

function sink(port: number, expected: number): void {
  const server = createServer((socket) => {
    let bytes = 0;
    let first: bigint | undefined;
    let reported = false;
    const report = (): void => {
      if (reported) return;
      reported = true;
      process.stdout.write(`${JSON.stringify({ bytes, seconds: first ? elapsedSeconds(first) : 0 })}\n`);
    };
    socket.on("data", (chunk: Buffer) => {
      first ??= process.hrtime.bigint();
      bytes += chunk.length;
      if (bytes >= expected) {
        report();
        socket.destroy();
      }
    });
    socket.on("end", () => {
      report();
      socket.end();
    });
    socket.on("error", () => socket.destroy());
  });
  server.listen(port, "0.0.0.0", () => process.stdout.write(`${JSON.stringify({ listening: port })}\n`));
}

function send(host: string, port: number, total: number): void {
  const started = process.hrtime.bigint();
  const socket = connect({ host, port }, () => {
    let left = total;
    const pump = (): void => {
      while (left > 0) {
        const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        left -= piece.length;
        if (!socket.write(piece)) {
          socket.once("drain", pump);
          return;
        }
      }
      socket.end();
    };
    pump();
  });
  socket.on("data", () => {});
  socket.on("close", (hadError) => {
    if (hadError) process.exit(1);
    process.stdout.write(`${JSON.stringify({ bytes: total, seconds: elapsedSeconds(started) })}\n`);
  });
  socket.on("error", (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}

async function connects(host: string, port: number, count: number): Promise<void> {
  const millis: number[] = [];
  for (let i = 0; i < count; i++) {
    millis.push(
      await new Promise<number>((resolve, reject) => {
        const started = process.hrtime.bigint();
        const socket = connect({ host, port }, () => {
          resolve(elapsedSeconds(started) * 1000);
          socket.destroy();
        });
        socket.on("error", reject);
      }),
    );
  }
  process.stdout.write(`${JSON.stringify({ millis })}\n`);
}

if (mode === "sink") sink(Number(args[0]), args[1] ? Number(args[1]) : Number.POSITIVE_INFINITY);
else if (mode === "send") send(args[0] ?? "", Number(args[1]), Number(args[2]));
else if (mode === "connect") await connects(args[0] ?? "", Number(args[1]), Number(args[2]));
else {
  process.stderr.write("usage: tcp-bench sink PORT [BYTES] | send HOST PORT BYTES | connect HOST PORT N\n");
  process.exit(2);
}
