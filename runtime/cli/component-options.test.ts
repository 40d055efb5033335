import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Command } from "commander";
import { addCommonOptions, readCommonOptions } from "./common-options.js";
import { componentCommand } from "./component-command.js";
import { addLeaderElectionOptions, readLeaderElectionOptions } from "./leader-election-options.js";

function leaderElected(): Command {
  const command = componentCommand("test-component", "a leader-elected component");
  addCommonOptions(command, { serves: "the health server", address: "0.0.0.0", port: 8443 });
  return addLeaderElectionOptions(command);
}

/** commander writes refusals to stderr before it throws: keep the test output clean. */
function quietly(run: () => void): void {
  const write = process.stderr.write;
  process.stderr.write = () => true;
  try {
    run();
  } finally {
    process.stderr.write = write;
  }
}

describe("the components' common options", () => {
  test("defaults: no kubeconfig, the given address and port, client-go's lease timings, info", () => {
    const command = leaderElected().parse([], { from: "user" });
    assert.deepEqual(readCommonOptions(command), {
      kubeconfig: undefined,
      address: "0.0.0.0",
      port: 8443,
      logLevel: "info",
    });
    assert.deepEqual(readLeaderElectionOptions(command), {
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
  });

  test("every flag, durations read in milliseconds", () => {
    const command = leaderElected().parse(
      [
        "--kubeconfig=/tmp/kc",
        "--address=10.0.0.5",
        "--port=0",
        "--leader-elect-lease-duration=1",
        "--leader-elect-renew-deadline=0.6",
        "--leader-elect-retry-period=0.1",
        "--identity=pod-a",
        "--log-level=silent",
      ],
      { from: "user" },
    );
    assert.deepEqual(readCommonOptions(command), {
      kubeconfig: "/tmp/kc",
      address: "10.0.0.5",
      port: 0,
      logLevel: "silent",
    });
    assert.deepEqual(readLeaderElectionOptions(command), {
      identity: "pod-a",
      leaseDurationMs: 1000,
      renewDeadlineMs: 600,
      retryPeriodMs: 100,
    });
  });

  test("an empty identity leaves the Manager to make one", () => {
    const command = leaderElected().parse(["--identity="], { from: "user" });
    assert.equal("identity" in readLeaderElectionOptions(command), false);
  });

  test("a bad port, duration or log level is refused with a message; commander throws instead of exiting", () => {
    quietly(() => {
      for (const port of ["70000", "-1", "1.5", "eighty", ""]) {
        assert.throws(
          () => leaderElected().parse([`--port=${port}`], { from: "user" }),
          /port is an integer/,
        );
      }
      assert.throws(
        () => leaderElected().parse(["--leader-elect-retry-period=0"], { from: "user" }),
        /positive number of seconds/,
      );
      assert.throws(
        () => leaderElected().parse(["--leader-elect-lease-duration=soon"], { from: "user" }),
        /positive number of seconds/,
      );
      assert.throws(
        () => leaderElected().parse(["--log-level=loud"], { from: "user" }),
        /a log level: trace/,
      );
      assert.throws(
        () => leaderElected().parse(["--no-such-flag"], { from: "user" }),
        (error: unknown) => {
          assert.match(String(error), /unknown option/);
          assert.equal((error as { exitCode?: unknown }).exitCode, 1);
          return true;
        },
      );
    });
  });

  test("--help says where a computed address default comes from", () => {
    const command = componentCommand("c", "d");
    addCommonOptions(command, {
      serves: "the API",
      address: "10.0.0.9",
      addressFrom: "$POD_IP, else 0.0.0.0",
      port: 1,
    });
    const help = command.helpInformation();
    assert.match(help, /address of the API \(default: \$POD_IP, else 0\.0\.0\.0\)/);
    assert.match(help, /port of the API \(0: any free port\)/);
  });
});
