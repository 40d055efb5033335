/*
 * virt-launcher's only process. It holds the pod (and the memory and CPU the scheduler reserved
 * for the VM) until Kubernetes stops it: as PID 1 it must handle SIGTERM itself, or the kernel
 * ignores the signal and every VM stop waits out the pod's whole grace period.
 */
#include <signal.h>
#include <unistd.h>

static void stop(int signal_number) {
  (void)signal_number;
  _exit(0);
}

int main(void) {
  signal(SIGTERM, stop);
  signal(SIGINT, stop);
  for (;;) pause();
}
