import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Authenticator, bearerToken, chainAuthenticators } from "./authenticator.js";
import { formatTokenFileLine, parseTokenFile } from "./token-file-format.js";
import { ensureTokenFile, loadTokenFile } from "./tokens.js";

describe("token file", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "tokens-test-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("is created with a random admin token, private, and reused", async () => {
    const path = join(dir, "tokens.csv");
    const token = await ensureTokenFile(path);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.equal(await readFile(path, "utf8"), `${token},admin,admin,"system:masters"\n`);
    assert.equal(await ensureTokenFile(path), token, "the second start keeps the token");
    assert.notEqual(await ensureTokenFile(join(dir, "other.csv")), token, "tokens are random");
  });

  test("authenticates the admin token and nothing else", async () => {
    const path = join(dir, "tokens.csv");
    const token = await ensureTokenFile(path);
    const authenticator = await loadTokenFile(path);
    const admin = { username: "admin", uid: "admin", groups: ["system:masters", "system:authenticated"] };
    const cases: [string, string | undefined, typeof admin | undefined][] = [
      ["bearer token", `Bearer ${token}`, admin],
      ["scheme is case-insensitive", `bearer ${token}`, admin],
      ["wrong token", "Bearer wrong", undefined],
      ["token prefix", `Bearer ${token.slice(0, -1)}`, undefined],
      ["token with suffix", `Bearer ${token}x`, undefined],
      ["basic auth", `Basic ${token}`, undefined],
      ["empty bearer", "Bearer ", undefined],
      ["no header", undefined, undefined],
    ];
    for (const [name, header, expected] of cases) {
      assert.deepEqual(authenticator.authenticate(header), expected, name);
    }
  });

  test("reads kube-apiserver's format: comments, quoted groups, a later duplicate wins", async () => {
    const path = join(dir, "hand-written.csv");
    await writeFile(
      path,
      ["# users", "t1,alice,1001", 't2,bob,1002,"devs,ops"', "", 't1,carol,1003,"x"', "t3,dave,1004,"].join(
        "\n",
      ),
    );
    const authenticator = await loadTokenFile(path);
    assert.deepEqual(authenticator.authenticate("Bearer t2")?.groups, [
      "devs",
      "ops",
      "system:authenticated",
    ]);
    assert.equal(authenticator.authenticate("Bearer t1")?.username, "carol");
    assert.deepEqual(authenticator.authenticate("Bearer t3")?.groups, ["system:authenticated"]);
    await assert.rejects(ensureTokenFile(path), /no token in group system:masters/);
    await assert.rejects(loadTokenFile(join(dir, "missing.csv")), /does not exist/);
  });
});

describe("token file format", () => {
  test("a line round-trips, quoting groups and odd characters", () => {
    const entry = { token: "abc", username: 'we"ird, name', uid: "7", groups: ["a", "b:c"] };
    const line = formatTokenFileLine(entry);
    assert.equal(line, 'abc,"we""ird, name",7,"a,b:c"');
    assert.deepEqual(parseTokenFile(line, "f"), [entry]);
  });

  const badLines: [string, RegExp][] = [
    ["onlytoken", /f:1: expected token,user,uid/],
    [",user,uid", /f:1: expected/],
    ['t,"user"x,1', /f:1: not a valid CSV line/],
  ];
  for (const [line, message] of badLines) {
    test(`rejects ${JSON.stringify(line)}`, () => assert.throws(() => parseTokenFile(line, "f"), message));
  }
});

describe("authenticator helpers", () => {
  test("bearerToken extracts only bearer tokens", () => {
    assert.equal(bearerToken("Bearer abc"), "abc");
    assert.equal(bearerToken("BEARER  abc "), "abc");
    assert.equal(bearerToken("Bearer a b"), undefined);
    assert.equal(bearerToken("Token abc"), undefined);
  });

  test("chained authenticators answer with the first that knows the credentials", () => {
    const fixed = (token: string, username: string): Authenticator => ({
      authenticate: (header) =>
        bearerToken(header) === token ? { username, uid: username, groups: [] } : undefined,
    });
    const chain = chainAuthenticators([fixed("a", "first"), fixed("b", "second"), fixed("b", "third")]);
    assert.equal(chain.authenticate("Bearer a")?.username, "first");
    assert.equal(chain.authenticate("Bearer b")?.username, "second");
    assert.equal(chain.authenticate("Bearer c"), undefined);
  });
});
