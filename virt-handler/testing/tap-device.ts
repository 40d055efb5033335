// A tap device opened the way QEMU opens one (TUNSETIFF on /dev/net/tun), for tests that need a
// "guest" on the other end of a tap: the tap exists while the file descriptor is open, keeps it
// when moved into another network namespace, and frames written to it are what the guest sends.
import { closeSync, constants, openSync, readSync, writeSync } from "node:fs";
import koffi from "koffi";

/** _IOW('T', 202, int), from linux/if_tun.h. */
const TUNSETIFF = 0x400454ca;
const IFF_TAP = 0x0002;
const IFF_NO_PI = 0x1000;
/** struct ifreq: the name (IFNAMSIZ bytes), then a union whose first member is the flags. */
const IFNAMSIZ = 16;
const IFREQ_SIZE = 40;

export interface TapDevice {
  readonly name: string;
  /** Writes one Ethernet frame, as a guest sending it would. */
  sendFrame(frame: Buffer): void;
  /**
   * Takes the frames waiting for the guest, as QEMU does, and returns their sizes. The kernel
   * counts a frame as transmitted on the tap only once it is taken.
   */
  receiveFrames(): number[];
  /** Closes the descriptor, which removes the (not persistent) tap wherever it is. */
  close(): void;
}

const ioctl = koffi.load("libc.so.6").func("int ioctl(int fd, unsigned long request, ...)");

export function openTap(name: string): TapDevice {
  if (Buffer.byteLength(name) >= IFNAMSIZ) throw new Error(`the tap name ${name} is too long`);
  const fd = openSync("/dev/net/tun", constants.O_RDWR | constants.O_NONBLOCK);
  const request = Buffer.alloc(IFREQ_SIZE);
  request.write(name, 0, "ascii");
  request.writeUInt16LE(IFF_TAP | IFF_NO_PI, IFNAMSIZ);
  if (ioctl(fd, TUNSETIFF, "uint8_t *", request) !== 0) {
    const errno = koffi.errno();
    closeSync(fd);
    throw new Error(`cannot create the tap ${name}: TUNSETIFF failed with errno ${errno}`);
  }
  return {
    name,
    sendFrame: (frame) => {
      writeSync(fd, frame);
    },
    receiveFrames: () => {
      const sizes: number[] = [];
      const buffer = Buffer.alloc(65536);
      for (;;) {
        try {
          sizes.push(readSync(fd, buffer));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EAGAIN") return sizes;
          throw new Error(`cannot read from the tap ${name}`, { cause: error });
        }
      }
    },
    close: () => closeSync(fd),
  };
}
