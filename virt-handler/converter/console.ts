// The serial console: a pty on the first serial port (what `virtctl console` and libvirt's console stream
// attach to), unless autoattachSerialConsole is false; copied to a log file unless logSerialConsole is false.
import type { SerialDevice } from "../../libvirt/domain-xml/index.js";
import type { Configurator } from "./configurator.js";

export const configureSerialConsole: Configurator = (domain, { spec, options }) => {
  if (spec.domain.devices.autoattachSerialConsole === false) return;
  const serial: SerialDevice = { type: "pty", target: { port: 0 } };
  // append: a restarted domain keeps what the guest printed before; logSerialConsole: false keeps no copy
  const logged = spec.domain.devices.logSerialConsole !== false;
  if (logged && options.serialLogPath !== undefined)
    serial.log = { file: options.serialLogPath, append: true };
  domain.devices.serials = [serial];
  domain.devices.consoles = [{ type: "pty", target: { type: "serial", port: 0 } }];
};
