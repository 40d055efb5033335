// The state directory bound: a VM's VNC socket path must fit a unix socket address. Shown with a
// real socket at the longest path the check allows, and what happens one byte further (the path is
// cut: the socket appears somewhere else, or binding fails), which is why such a directory is refused.
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  checkSocketPathsFit,
  longestSocketPath,
  MAX_UNIX_SOCKET_PATH_BYTES,
  StateDirectoryError,
} from "./socket-paths.js";

function listen(path: string): Promise<Server | Error> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", resolve);
    server.listen(path, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe("state directory and unix socket paths", () => {
  let base: string;
  let fitting: string;
  before(async () => {
    base = await mkdtemp(join(tmpdir(), "socket-paths-"));
    const spare = MAX_UNIX_SOCKET_PATH_BYTES - Buffer.byteLength(longestSocketPath(join(base, "s")));
    fitting = join(base, "s".repeat(1 + spare));
  });
  after(() => rm(base, { recursive: true, force: true }));

  test("the longest allowed state directory gives a socket that binds where it should", async () => {
    const path = longestSocketPath(fitting);
    assert.equal(Buffer.byteLength(path), MAX_UNIX_SOCKET_PATH_BYTES);
    checkSocketPathsFit(fitting);
    await mkdir(dirname(path), { recursive: true });
    const server = await listen(path);
    assert.ok(!(server instanceof Error), String(server));
    try {
      assert.ok(statSync(path).isSocket(), "the socket is at the path the domain names");
      await new Promise<void>((resolve, reject) => {
        const client = connect({ path }, () => {
          client.destroy();
          resolve();
        });
        client.once("error", reject);
      });
    } finally {
      await close(server);
    }
  });

  test("one byte longer is refused with what to do; binding there would not give that path", async () => {
    const tooLong = `${fitting}x`;
    assert.throws(
      () => checkSocketPathsFit(tooLong),
      (error: unknown) =>
        error instanceof StateDirectoryError &&
        error.reason === "StateDirTooLong" &&
        error.message.includes("--state-dir") &&
        error.message.includes(`at most ${Buffer.byteLength(fitting)} bytes`),
    );
    const path = longestSocketPath(tooLong);
    await mkdir(dirname(path), { recursive: true });
    const server = await listen(path);
    if (!(server instanceof Error)) await close(server);
    assert.ok(server instanceof Error || !existsSync(path), "no socket at the path the domain would name");
  });
});
