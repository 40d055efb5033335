import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

/** What an image "contains": the program a container of it runs, as an image's config gives it. */
export interface ImageProgram {
  /** The image's ENTRYPOINT: replaced by the container's `command`. */
  command: string[];
  /** The image's CMD: replaced by the container's `args` (or dropped when `command` is given). */
  args?: string[];
  /** The image's ENV, overridden by the container's env. */
  env?: Record<string, string>;
  /** The image's WORKDIR (default: the pod's directory). */
  workingDir?: string;
}

export interface ResolvedImage {
  /** The image map key that matched. */
  key: string;
  program: ImageProgram;
  /** A stable digest of the program, reported as the container's imageID. */
  imageID: string;
}

/**
 * The image map file: `{ "images": { "<image or prefix>": { "command": [...], "args"?: [...],
 * "env"?: {...}, "workingDir"?: "..." } } }`. It is read on every container start, so tests
 * and users can extend it while the agent runs.
 */
export async function loadImageMap(path: string): Promise<Map<string, ImageProgram>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the image map ${path}`, { cause: error });
  }
  const images = (value as { images?: unknown } | null)?.images;
  if (typeof images !== "object" || images === null || Array.isArray(images)) {
    throw new Error(`the image map ${path} has no "images" object`);
  }
  const map = new Map<string, ImageProgram>();
  for (const [key, entry] of Object.entries(images)) map.set(key, parseProgram(key, entry, path));
  return map;
}

/**
 * The program of `image`: an exact key wins; otherwise the longest key that is a prefix of the
 * image (`quay.io/kubevirt/virt-launcher` matches `quay.io/kubevirt/virt-launcher:v1.3`) or of its
 * name after the last "/" (`virt-launcher` matches `localhost/virt-launcher:dev`).
 */
export function resolveImage(
  map: ReadonlyMap<string, ImageProgram>,
  image: string,
): ResolvedImage | undefined {
  const exact = map.get(image);
  const name = image.slice(image.lastIndexOf("/") + 1);
  let key = exact ? image : undefined;
  if (!key) {
    for (const candidate of map.keys()) {
      const matches = image.startsWith(candidate) || name.startsWith(candidate);
      if (matches && (key === undefined || candidate.length > key.length)) key = candidate;
    }
  }
  const program = key === undefined ? undefined : map.get(key);
  if (key === undefined || !program) return undefined;
  const digest = createHash("sha256").update(JSON.stringify({ key, program })).digest("hex");
  return { key, program, imageID: `kubevirt-ts.local/${key}@sha256:${digest}` };
}

/**
 * The node's images: the map file's, over the built-in ones the agent was started with (the
 * cluster's own add-ons), so that a file may still override one of them.
 */
export async function loadNodeImages(
  path: string,
  builtIn: Readonly<Record<string, ImageProgram>>,
): Promise<Map<string, ImageProgram>> {
  return new Map([...Object.entries(builtIn), ...(await loadImageMap(path))]);
}

function parseProgram(key: string, entry: unknown, path: string): ImageProgram {
  const where = `the image map ${path}, image "${key}"`;
  if (typeof entry !== "object" || entry === null) throw new Error(`${where}: not an object`);
  const { command, args, env, workingDir } = entry as Record<string, unknown>;
  if (!isStringList(command)) throw new Error(`${where}: "command" must be a list of strings`);
  if (args !== undefined && !isStringList(args))
    throw new Error(`${where}: "args" must be a list of strings`);
  if (env !== undefined && !isStringRecord(env)) throw new Error(`${where}: "env" must map names to strings`);
  if (workingDir !== undefined && typeof workingDir !== "string") {
    throw new Error(`${where}: "workingDir" must be a string`);
  }
  return {
    command,
    ...(args ? { args } : {}),
    ...(env ? { env } : {}),
    ...(workingDir ? { workingDir } : {}),
  };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === "string")
  );
}
