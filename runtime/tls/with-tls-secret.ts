// A server together with the Secret watch that feeds it its certificate: the watch starts first,
// so the server warns about a missing certificate only once the Secret was read and found missing
// (or could not be read yet), and it stops last.
import type { Runnable } from "../manager/runnable.js";
import type { SecretTlsSource } from "./secret-tls-source.js";

export function withTlsSecret(server: Runnable, tls: SecretTlsSource): Runnable {
  return {
    name: server.name,
    needsLeaderElection: server.needsLeaderElection,
    run: async (signal) => {
      const read = tls.start();
      const stopped = new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      await Promise.race([read, stopped]);
      try {
        await server.run(signal);
      } finally {
        await tls.stop();
        await read;
      }
    },
  };
}
