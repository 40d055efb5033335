import { once } from "node:events";
import { createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a process under test whose port must be
 * known before it starts (it is told `--port N`).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  return typeof address === "object" && address ? address.port : 0;
}
