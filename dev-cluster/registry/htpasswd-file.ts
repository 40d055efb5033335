// distribution's htpasswd auth accepts bcrypt lines only; Node has no bcrypt, so Apache's
// `htpasswd` (Debian package apache2-utils) makes the line.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";

export interface HtpasswdUser {
  readonly user: string;
  readonly password: string;
}

export class HtpasswdError extends Error {
  override readonly name = "HtpasswdError";
  readonly reason = "HtpasswdFailed";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export async function writeHtpasswdFile(path: string, users: readonly HtpasswdUser[]): Promise<void> {
  const lines: string[] = [];
  for (const { user, password } of users) {
    if (user.includes(":") || user.includes("\n"))
      throw new HtpasswdError(`user name ${JSON.stringify(user)}`);
    try {
      // -i reads the password from stdin, so it never shows in the process list.
      lines.push((await runHtpasswd(["-niB", "-C", "10", user], password)).trim());
    } catch (error) {
      throw new HtpasswdError("cannot run htpasswd (Debian package apache2-utils)", { cause: error });
    }
  }
  await writeFile(path, `${lines.join("\n")}\n`, { mode: 0o600 });
}

function runHtpasswd(args: string[], stdin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("htpasswd", args, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    child.stdin?.end(stdin);
  });
}
