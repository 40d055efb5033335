/*
 * The pod sandbox's process: it holds the pod's namespaces for as long as the pod lives, reaps
 * the zombies its namespace's orphans become (it is PID 1 there), and exits on SIGINT or SIGTERM.
 * kubevirt-ts builds its own because no public registry is reachable here.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static void stop(int signal) {
  (void)signal;
  _exit(0);
}

static void reap(int signal) {
  (void)signal;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction on_stop = {.sa_handler = stop};
  struct sigaction on_child = {.sa_handler = reap, .sa_flags = SA_NOCLDSTOP | SA_RESTART};
  if (sigaction(SIGINT, &on_stop, NULL) != 0 || sigaction(SIGTERM, &on_stop, NULL) != 0 ||
      sigaction(SIGCHLD, &on_child, NULL) != 0) {
    return 1;
  }
  if (getpid() != 1) {
    /* Outside a PID namespace it would reap nobody's children but its own: say so, as a hint. */
    static const char warning[] = "pause: not PID 1, reaping only its own children\n";
    if (write(STDERR_FILENO, warning, sizeof warning - 1) < 0) {
    }
  }
  for (;;) pause();
}
