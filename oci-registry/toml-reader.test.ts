import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseToml, TomlError } from "./toml-reader.js";

describe("parseToml", () => {
  it("reads the shapes of hosts.toml and registries.conf", () => {
    const parsed = parseToml(`
# containerd
server = "https://registry.example:5000" # trailing comment
unqualified-search-registries = ["docker.io", 'quay.io',
  "registry.example", # comment in an array
]
[host."http://mirror.local:5000"]
  capabilities = ["pull", "resolve"]
  skip_verify = true
  dial_timeout = 30
[host.'https://other'.header]
  x-custom = "a\\tb\\u00e9"
[[registry]]
prefix = "docker.io"
[[registry.mirror]]
location = "mirror.local"
[[registry.mirror]]
location = "mirror2.local"
pull-from-mirror = "digest-only"
[[registry]]
location = "quay.io"
inline = { a = 1, b.c = "d" }
`);
    assert.deepEqual(parsed, {
      server: "https://registry.example:5000",
      "unqualified-search-registries": ["docker.io", "quay.io", "registry.example"],
      host: {
        "http://mirror.local:5000": {
          capabilities: ["pull", "resolve"],
          skip_verify: true,
          dial_timeout: 30,
        },
        "https://other": { header: { "x-custom": "a\tbé" } },
      },
      registry: [
        {
          prefix: "docker.io",
          mirror: [
            { location: "mirror.local" },
            { location: "mirror2.local", "pull-from-mirror": "digest-only" },
          ],
        },
        { location: "quay.io", inline: { a: 1, b: { c: "d" } } },
      ],
    });
  });

  const refused: [string, RegExp][] = [
    ['a = "open', /line 1: unterminated string/],
    ["a = 1.5", /line 1: unsupported value/],
    ["\n\na = 1979-05-27", /line 3: unsupported value/],
    ['a = """multi"""', /multi-line/],
    ["a = 1\na = 2", /line 2: a is defined twice/],
    ["a = 1 b = 2", /unexpected/],
    ["[a]\n[[a]]", /not an array of tables/],
    ['a = "\\x"', /unknown escape/],
  ];
  for (const [text, why] of refused) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => parseToml(text),
        (error: unknown) => error instanceof TomlError && why.test(error.message),
      );
    });
  }
});
