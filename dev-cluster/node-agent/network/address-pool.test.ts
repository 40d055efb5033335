import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AddressPool } from "./address-pool.js";
import { cidrContains, formatIpv4, parseCidr, parseIpv4 } from "./ipv4.js";

describe("pod addresses", () => {
  test("CIDRs are normalised and checked", () => {
    assert.equal(parseCidr("10.244.0.7/24").text, "10.244.0.0/24");
    assert.equal(formatIpv4(parseIpv4("192.168.1.254")), "192.168.1.254");
    assert.ok(cidrContains(parseCidr("10.244.0.0/24"), "10.244.0.200"));
    assert.ok(!cidrContains(parseCidr("10.244.0.0/24"), "10.244.1.1"));
    assert.throws(() => parseCidr("10.244.0.0"), /CIDR/);
    assert.throws(() => parseIpv4("10.256.0.1"), /not an IPv4 address/);
  });

  test("addresses are handed out round-robin, skipping reserved and claimed ones", () => {
    const pool = new AddressPool(parseCidr("10.0.0.0/29"), ["10.0.0.1"]);
    pool.claim("10.0.0.3");
    assert.deepEqual([pool.allocate(), pool.allocate()], ["10.0.0.2", "10.0.0.4"]);
    pool.release("10.0.0.2");
    assert.deepEqual(
      [pool.allocate(), pool.allocate(), pool.allocate()],
      ["10.0.0.5", "10.0.0.6", "10.0.0.2"],
    );
    assert.throws(() => pool.allocate(), /no free address/);
  });
});
