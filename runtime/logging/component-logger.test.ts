import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { componentLogger, type LogOutput } from "./component-logger.js";

/** A stand-in for stdout that keeps what is written; a terminal or not. */
function capture(isTTY: boolean): LogOutput & { text(): string } {
  const chunks: string[] = [];
  return {
    isTTY,
    write(text: string) {
      chunks.push(text);
      return true;
    },
    text: () => chunks.join(""),
  };
}

describe("componentLogger: JSON unless stdout is a terminal", () => {
  test("not a terminal (a pipe, the node agent's log file): one JSON record a line, as before", () => {
    const output = capture(false);
    componentLogger({ level: "info", output })
      .child({ component: "virt-api" })
      .info({ port: 8443 }, "serving");
    const [line, ...rest] = output.text().split("\n");
    assert.deepEqual(rest, [""]);
    const record = JSON.parse(line ?? "");
    assert.equal(record.level, 30);
    assert.equal(record.component, "virt-api");
    assert.equal(record.port, 8443);
    assert.equal(record.msg, "serving");
    assert.equal(typeof record.time, "number");
  });

  test("a terminal: human lines, at the level asked for", () => {
    const output = capture(true);
    const log = componentLogger({ level: "info", name: "dev-cluster", output });
    log.debug("not shown");
    log.info({ port: 6443 }, "API server listening");
    assert.match(
      output.text(),
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}dev-cluster API server listening port=6443\n$/,
    );
  });

  test("pino's name stays in the JSON records (the dev cluster's)", () => {
    const output = capture(false);
    componentLogger({ level: "info", name: "dev-cluster", output }).info("up");
    assert.equal(JSON.parse(output.text()).name, "dev-cluster");
  });
});
