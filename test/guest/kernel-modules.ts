// Picks kernel modules out of an unpacked Debian kernel package and orders them for busybox `insmod`.
// The package ships no modules.dep (depmod runs in its postinst), so dependencies are read from each
// module's `.modinfo` section (`depends=a,b`), as `modinfo` does.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface KernelModule {
  /** Canonical module name (underscores, as the kernel reports it). */
  name: string;
  path: string;
  dependencies: string[];
}

/** Module names use "_" and "-" interchangeably ("crc-t10dif" is "crc_t10dif"). */
export function canonicalModuleName(name: string): string {
  return name.replace(/-/g, "_");
}

/** The value of `key=` in a module's .modinfo section (NUL-separated `key=value` strings). */
export function readModinfoField(moduleBytes: Buffer, key: string): string | undefined {
  const needle = Buffer.from(`\0${key}=`);
  const start = moduleBytes.indexOf(needle);
  if (start < 0) return undefined;
  const valueStart = start + needle.length;
  const end = moduleBytes.indexOf(0, valueStart);
  return moduleBytes.toString("latin1", valueStart, end < 0 ? moduleBytes.length : end);
}

async function walkModuleFiles(
  dir: string,
  found: Map<string, string>,
  compressed: Set<string>,
): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walkModuleFiles(path, found, compressed);
    else if (entry.name.endsWith(".ko")) found.set(canonicalModuleName(entry.name.slice(0, -3)), path);
    else if (/\.ko\.(xz|zst|gz)$/.test(entry.name))
      compressed.add(canonicalModuleName(entry.name.split(".")[0] ?? ""));
  }
}

async function readBuiltinModules(modulesDir: string): Promise<Set<string>> {
  try {
    const text = await readFile(join(modulesDir, "modules.builtin"), "utf8");
    const names = text
      .split("\n")
      .filter((line) => line.endsWith(".ko"))
      .map((line) => canonicalModuleName(line.slice(line.lastIndexOf("/") + 1, -3)));
    return new Set(names);
  } catch {
    return new Set();
  }
}

/**
 * The modules to load, dependencies first, for the wanted ones (in the order asked, each after what it needs).
 * `modulesDir` is `lib/modules/<version>` of the unpacked package. Built-in modules are skipped.
 */
export async function resolveModuleLoadOrder(
  modulesDir: string,
  wanted: readonly string[],
): Promise<KernelModule[]> {
  const files = new Map<string, string>();
  const compressed = new Set<string>();
  await walkModuleFiles(join(modulesDir, "kernel"), files, compressed);
  const builtin = await readBuiltinModules(modulesDir);
  const ordered: KernelModule[] = [];
  const state = new Map<string, "visiting" | "done">();

  const visit = async (requestedName: string, neededBy: string[]): Promise<void> => {
    const name = canonicalModuleName(requestedName);
    if (state.get(name) === "done" || builtin.has(name)) return;
    if (state.get(name) === "visiting")
      throw new Error(`module dependency cycle: ${[...neededBy, name].join(" → ")}`);
    const path = files.get(name);
    if (!path) {
      const why = compressed.has(name)
        ? " (only a compressed .ko is shipped, which busybox insmod cannot load)"
        : "";
      const chain = neededBy.length > 0 ? ` (needed by ${neededBy.join(" → ")})` : "";
      throw new Error(`kernel module ${name} not found in ${modulesDir}${why}${chain}`);
    }
    state.set(name, "visiting");
    const depends = readModinfoField(await readFile(path), "depends") ?? "";
    const dependencies = depends.split(",").filter((dependency) => dependency !== "");
    for (const dependency of dependencies) await visit(dependency, [...neededBy, name]);
    state.set(name, "done");
    ordered.push({ name, path, dependencies: dependencies.map(canonicalModuleName) });
  };

  for (const name of wanted) await visit(name, []);
  return ordered;
}
