import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { guestCountersOfTap, parseNetDev } from "./net-dev.js";

// As a 6.x kernel writes it (columns are padded to different widths on every line).
const NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    1200      12    0    0    0     0          0         0     1200      12    0    0    0     0       0          0
k6t-eth0: 9000 90 0 0 0 0 0 0 4000 40 0 0 0 0 0 0
  tap0: 18446744073709 5000 1 2 3 4 5 6 734 7 8 9 10 11 12 13
`;

describe("/proc/net/dev", () => {
  test("every link with its receive and transmit counters; the headers are no links", () => {
    const links = parseNetDev(NET_DEV);
    assert.deepEqual([...links.keys()], ["lo", "k6t-eth0", "tap0"]);
    assert.deepEqual(links.get("tap0"), {
      ...{ rxBytes: 18446744073709, rxPackets: 5000, rxErrors: 1, rxDrops: 2 },
      ...{ txBytes: 734, txPackets: 7, txErrors: 8, txDrops: 9 },
    });
    assert.equal(links.get("k6t-eth0")?.txBytes, 4000);
  });

  test("a line it cannot read is an error, not a zero", () => {
    assert.throws(
      () => parseNetDev("  tap0: 1 2 3\n"),
      /unexpected line in \/proc\/net\/dev: " {2}tap0: 1 2 3"/,
    );
    assert.throws(() => parseNetDev("  tap0: 1 2 3 4 5 6 7 x 9 10 11 12 13 14 15 16\n"), /unexpected line/);
  });

  test("a tap from the guest's side: what the host sends on it, the guest receives", () => {
    const tap = parseNetDev(NET_DEV).get("tap0");
    assert.ok(tap);
    assert.deepEqual(guestCountersOfTap(tap), {
      ...{ rxBytes: 734, rxPackets: 7, rxErrors: 8, rxDrops: 9 },
      ...{ txBytes: 18446744073709, txPackets: 5000, txErrors: 1, txDrops: 2 },
    });
  });
});
