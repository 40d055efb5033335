import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { writeSecretFile } from "../tls/secret-file.js";
import { type Authenticator, bearerToken, type UserInfo, withAuthenticatedGroup } from "./authenticator.js";
import { formatTokenFileLine, parseTokenFile, type TokenFileEntry } from "./token-file-format.js";

export type { Authenticator, UserInfo } from "./authenticator.js";

const mastersGroup = "system:masters";

async function readTokenFile(path: string): Promise<TokenFileEntry[] | undefined> {
  let content: string;
  try {
    content = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the token file ${path}`, { cause: error });
  }
  return parseTokenFile(content, path);
}

/**
 * Makes sure the static token file exists and returns the admin's token (the first entry in
 * `system:masters`). A missing file is created (mode 0600) with a random token for user `admin`.
 */
export async function ensureTokenFile(path: string): Promise<string> {
  const entries = await readTokenFile(path);
  if (entries) {
    const admin = entries.find((entry) => entry.groups.includes(mastersGroup));
    if (!admin) throw new Error(`the token file ${path} has no token in group ${mastersGroup}`);
    return admin.token;
  }
  const admin = {
    token: randomBytes(32).toString("base64url"),
    username: "admin",
    uid: "admin",
    groups: [mastersGroup],
  };
  await writeSecretFile(path, `${formatTokenFileLine(admin)}\n`, 0o600);
  return admin.token;
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/**
 * Authenticates `Authorization: Bearer` tokens against a fixed list. Tokens are compared as
 * SHA-256 digests with timingSafeEqual against every entry, so neither the comparison nor the
 * number of entries looked at reveals how much of a guess was right.
 */
export class StaticTokenAuthenticator implements Authenticator {
  private readonly entries: { digest: Buffer; user: UserInfo }[];

  constructor(entries: readonly TokenFileEntry[]) {
    // A later line for the same token wins, as in kube-apiserver.
    this.entries = entries.map((entry) => ({
      digest: digest(entry.token),
      user: withAuthenticatedGroup({ username: entry.username, uid: entry.uid, groups: [...entry.groups] }),
    }));
  }

  authenticate(authorizationHeader: string | undefined): UserInfo | undefined {
    const token = bearerToken(authorizationHeader);
    if (token === undefined) return undefined;
    const presented = digest(token);
    let found: UserInfo | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, presented)) found = entry.user;
    }
    return found && { ...found, groups: [...found.groups] };
  }
}

/** Reads a static token file (kube-apiserver's `--token-auth-file` format) into an authenticator. */
export async function loadTokenFile(path: string): Promise<Authenticator> {
  const entries = await readTokenFile(path);
  if (!entries) throw new Error(`the token file ${path} does not exist`);
  return new StaticTokenAuthenticator(entries);
}
