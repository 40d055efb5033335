import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { findRepositoryRoot } from "../api/crd/repository-root.js";
import { HOST_TOOLS } from "../virt-handler/node/host-tools.js";
import { renderOperatorBundle } from "../virt-operator/deploy/render-operator-bundle.js";
import { renderStrategy } from "../virt-operator/strategy/render-strategy.js";
import { TEST_TRUST } from "../virt-operator/testing/test-trust.js";
import { execForm, parseCopy, parseStages, type Stage } from "./build/dockerfile.js";

/** The compiled tree this test runs from (dist/ for the images, .local/build-NAME for a developer). */
const OUTPUT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const ROOT = findRepositoryRoot(OUTPUT_ROOT);
const IMAGES = join(ROOT, "images");
/** virt-handler drives the node's libvirt and KVM as root; every other image runs as 65532. */
const ROOT_IMAGES = new Set(["virt-handler"]);

const dockerfiles = readdirSync(IMAGES)
  .filter((name) => name.endsWith(".Dockerfile"))
  .sort();

function stagesOf(fileName: string): Stage[] {
  return parseStages(readFileSync(join(IMAGES, fileName), "utf8"));
}

function finalStage(fileName: string): Stage {
  const stage = stagesOf(fileName).at(-1);
  assert.ok(stage, `${fileName} has a FROM`);
  return stage;
}

function argumentsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword).map((i) => i.argument);
}

function entrypointOf(fileName: string): string[] {
  const [entrypoint] = argumentsOf(finalStage(fileName), "ENTRYPOINT");
  const command = entrypoint === undefined ? undefined : execForm(entrypoint);
  assert.ok(command && command.length > 0, `${fileName}: an exec-form ENTRYPOINT`);
  return command;
}

/** The node script an ENTRYPOINT runs, relative to the output root (`/opt/x/dist/a/main.js` → `a/main.js`). */
function nodeScriptOf(command: string[]): string | undefined {
  if (command[0] !== "node") return undefined;
  const script = command.find((part) => part.endsWith(".js"));
  const at = script?.lastIndexOf("dist/") ?? -1;
  return script !== undefined && at >= 0 ? script.slice(at + "dist/".length) : undefined;
}

/** The compiled modules a script loads, transitively (relative imports), and the packages it imports. */
function moduleClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [resolve(OUTPUT_ROOT, entry)];
  // Static imports and re-exports start a line in tsc's output (their braces may span lines);
  // dynamic imports take a string literal.
  const specifiers = /^(?:import|export)\s(?:[^;"'`]*?\sfrom\s*)?"([^"]+)";?$|\bimport\(\s*"([^"]+)"\s*\)/gm;
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(specifiers)) {
      const specifier = match[1] ?? match[2] ?? "";
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith("node:")) {
        const parts = specifier.split("/");
        packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier));
      }
    }
  }
  return { files, packages };
}

/** Every component image the strategy and the operator bundle name, as `NAME` of `REGISTRY/NAME:TAG`. */
function referencedComponents(): Set<string> {
  const kubevirt = {
    apiVersion: "kubevirt.io/v1",
    kind: "KubeVirt",
    metadata: { name: "kubevirt", namespace: "kubevirt" },
    spec: {},
  };
  const strategy = renderStrategy(
    { namespace: "kubevirt", registry: "registry.test/kv", version: "v1" },
    kubevirt,
    TEST_TRUST,
  );
  const bundle = renderOperatorBundle({ registry: "registry.test/kv", tag: "v1" });
  const text = JSON.stringify([strategy.objects, bundle]);
  return new Set([...text.matchAll(/registry\.test\/kv\/([a-z0-9-]+):v1/g)].map((match) => match[1] ?? ""));
}

describe("images/", () => {
  test("a Dockerfile for every component image the strategy and the operator bundle reference", () => {
    const components = referencedComponents();
    assert.deepEqual(
      [...components].sort(),
      ["cdi-importer", "virt-api", "virt-controller", "virt-handler", "virt-launcher", "virt-operator"],
      "the images the manifests name",
    );
    for (const component of components) {
      assert.ok(dockerfiles.includes(`${component}.Dockerfile`), `images/${component}.Dockerfile`);
    }
  });

  test("the README says how to build and push each image and regenerate deploy/", () => {
    const readme = readFileSync(join(IMAGES, "README.md"), "utf8");
    for (const fileName of dockerfiles) assert.ok(readme.includes(`images/${fileName}`), fileName);
    assert.match(readme, /npm run images -- --registry \S+ --tag \S+ --push/);
    assert.match(readme, /docker build -f images\/COMPONENT\.Dockerfile/);
    assert.match(readme, /generate-deploy\.js --registry/);
  });

  for (const fileName of dockerfiles) {
    const component = fileName.replace(/\.Dockerfile$/, "");

    describe(fileName, () => {
      test("base images pinned to a full version (never latest), or earlier stages, or scratch", () => {
        const stages = stagesOf(fileName);
        const stageNames = new Set<string>();
        for (const stage of stages) {
          const pinned =
            stageNames.has(stage.base) ||
            stage.base === "scratch" ||
            /@sha256:[0-9a-f]{64}$/.test(stage.base) ||
            /^[^:@]+:\d+\.\d+(\.\d+)?(-[a-z0-9.-]+)?$/.test(stage.base);
          assert.ok(pinned, `FROM ${stage.base}`);
          assert.ok(!/:latest$/.test(stage.base), `FROM ${stage.base}`);
          if (stage.name) stageNames.add(stage.name);
        }
        assert.ok(stages.length >= 2, "multi-stage: the build tools stay out of the image");
      });

      test(
        ROOT_IMAGES.has(component) ? "runs as root (it drives the node)" : "runs as a non-root user (65532)",
        () => {
          const [user] = argumentsOf(finalStage(fileName), "USER").slice(-1);
          if (ROOT_IMAGES.has(component))
            assert.ok(user === undefined || /^0(:0)?$|^root/.test(user), `USER ${user}`);
          else assert.equal(user, "65532:65532");
        },
      );

      test("its ENTRYPOINT runs something the build produces", () => {
        const command = entrypointOf(fileName);
        const script = nodeScriptOf(command);
        if (script !== undefined) {
          assert.ok(
            existsSync(join(OUTPUT_ROOT, script)),
            `${script} in the compiled output (${OUTPUT_ROOT})`,
          );
          return;
        }
        // A native program: copied from a build stage that compiles a source of this repository.
        const copies = argumentsOf(finalStage(fileName), "COPY").map(parseCopy);
        const copy = copies.find((candidate) => candidate.destination === command[0]);
        assert.ok(copy?.from, `${command[0]} comes from a build stage`);
        const builder = stagesOf(fileName).find((stage) => stage.name === copy.from);
        assert.ok(builder, `stage ${copy.from}`);
        const sources = argumentsOf(builder, "COPY")
          .map(parseCopy)
          .flatMap((sourceCopy) => sourceCopy.sources);
        assert.ok(sources.length > 0);
        for (const source of sources) assert.ok(existsSync(join(ROOT, source)), `${source} exists`);
      });

      const script = nodeScriptOf(entrypointOf(fileName));
      if (script === undefined) return;

      test("built in a node stage (npm ci, tsc, npm prune --omit=dev); only dist/ and production node_modules shipped", () => {
        const [build, ...rest] = stagesOf(fileName);
        assert.ok(build && rest.length === 1, "one build stage, one runtime stage");
        const runs = argumentsOf(build, "RUN").join("\n");
        assert.match(runs, /\bnpm ci\b/);
        assert.match(runs, /\btsc\b/);
        assert.match(runs, /npm prune --omit=dev/);
        const copies = argumentsOf(finalStage(fileName), "COPY").map(parseCopy);
        for (const copy of copies) {
          assert.equal(copy.from, build.name, `${JSON.stringify(copy)} comes from the build stage`);
          for (const source of copy.sources) {
            assert.match(source, /^\/src\/(dist\/[a-z-]+|node_modules|package\.json)$/, source);
          }
        }
      });

      test("ships every module its entry point loads, and only production dependencies", () => {
        const shipped = argumentsOf(finalStage(fileName), "COPY")
          .map(parseCopy)
          .flatMap((copy) => copy.sources)
          .filter((source) => source.startsWith("/src/dist/"))
          .map((source) => source.slice("/src/dist/".length));
        const { files, packages } = moduleClosure(script);
        assert.ok(files.size > 10, `the walk found the entry point's modules (${files.size})`);
        for (const file of files) {
          const top = relative(OUTPUT_ROOT, file).split("/")[0] ?? "";
          assert.ok(shipped.includes(top), `${relative(OUTPUT_ROOT, file)} is in a copied dist/ directory`);
        }
        const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
          dependencies: Record<string, string>;
        };
        for (const name of packages)
          assert.ok(name in manifest.dependencies, `${name} is a production dependency`);
        assert.ok(packages.size > 0);
      });
    });
  }

  test("virt-handler's image has libvirt's client library (libvirt.so.0, loaded through koffi)", () => {
    const runs = argumentsOf(finalStage("virt-handler.Dockerfile"), "RUN").join("\n");
    assert.match(runs, /apt-get install[^\n]*\blibvirt0\b/);
  });

  test("virt-handler's image carries every program virt-handler runs (it never installs one)", () => {
    const runs = argumentsOf(finalStage("virt-handler.Dockerfile"), "RUN").join("\n");
    const installed = new Set(/apt-get install([^\n&|;]*)/.exec(runs)?.[1]?.split(/\s+/) ?? []);
    for (const tool of HOST_TOOLS) {
      assert.ok(
        tool.debianPackages.some((name) => installed.has(name)),
        `one of ${tool.debianPackages.join(", ")} (for ${tool.commands.join(" or ")}) in ${[...installed].join(" ")}`,
      );
    }
  });
});
