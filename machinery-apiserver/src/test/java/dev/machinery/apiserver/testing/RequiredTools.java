package dev.machinery.apiserver.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.opentest4j.AssertionFailedError;

/**
 * The programs outside Java that some tests drive — kubectl, openssl, etcd, the Python client — and
 * the one way a test says one is missing: it fails, naming the program and how to install it, and
 * never skips. A suite that skipped where its tool is missing would pass on a machine that cannot
 * run it; {@code .ci/run} installs every one that Debian packages and stops early, saying so, where
 * kubectl is missing.
 *
 * <p>Thread-safe: stateless.
 */
public final class RequiredTools {
  /** How to install kubectl, which Debian does not package. */
  public static final String KUBECTL =
      "kubectl (1.27 to 1.33), which Debian does not package: install it from"
          + " https://kubernetes.io/docs/tasks/tools/ on the PATH";

  /** How to install openssl. */
  public static final String OPENSSL =
      "openssl on the PATH: apt-get install openssl (bash .ci/run does)";

  /** How to install etcd. */
  public static final String ETCD =
      "an etcd binary on the PATH: apt-get install etcd-server (bash .ci/run does), or set"
          + " ETCD_BINARY";

  /** How to install the official Python client. */
  public static final String PYTHON_CLIENT =
      "the official Kubernetes Python client: apt-get install python3-kubernetes (bash .ci/run"
          + " does)";

  private RequiredTools() {}

  /**
   * Fails the calling test unless a tool is present.
   *
   * @param present whether the tool was found
   * @param tool what is missing and how to install it, such as {@link #OPENSSL}
   * @param who the tests that need it
   * @throws AssertionFailedError when it is not present
   */
  public static void require(boolean present, String tool, String who) {
    if (!present) {
      throw missing(tool, who);
    }
  }

  /**
   * The failure that says a tool is missing.
   *
   * @param tool what is missing and how to install it
   * @param who the tests that need it
   * @return the error to throw
   */
  public static AssertionFailedError missing(String tool, String who) {
    return new AssertionFailedError(
        who
            + " needs "
            + tool
            + ". It is missing, and these tests fail rather than skip without it.");
  }

  /**
   * Finds a command on the PATH.
   *
   * @param command the file name, such as {@code kubectl}
   * @return the first executable of that name on the PATH, or empty
   */
  public static Optional<Path> onPath(String command) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, command);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
