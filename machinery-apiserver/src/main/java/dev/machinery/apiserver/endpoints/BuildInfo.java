package dev.machinery.apiserver.endpoints;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * What {@code /version} says of the build that made this library: the git commit it was built from,
 * whether the work tree had changes, and when it was built. The build writes them to {@code
 * dev/machinery/apiserver/build-info.properties} ({@code git rev-parse HEAD}, {@code clean} or
 * {@code dirty} as {@code git status} finds tracked files changed, and Maven's build timestamp in
 * UTC).
 *
 * <p>Built outside a git work tree (from a source archive, or without git installed), the commit
 * and the tree state are {@value #UNKNOWN}; the build date is still the real one. Where the file is
 * missing altogether (classes compiled by something other than the Maven build), the build date is
 * {@value #UNKNOWN_DATE}, the value kube-apiserver reports when its build did not set one, which
 * clients that read it as a date still parse.
 *
 * <p>Thread-safe: immutable.
 */
final class BuildInfo {
  /** The commit and tree state of a build made outside git. */
  static final String UNKNOWN = "unknown";

  /** The build date where none was recorded: kube-apiserver's own unset value. */
  static final String UNKNOWN_DATE = "1970-01-01T00:00:00Z";

  private static final String RESOURCE = "/dev/machinery/apiserver/build-info.properties";
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");
  private static final BuildInfo CURRENT = read();

  private final String gitCommit;
  private final String gitTreeState;
  private final String buildDate;

  private BuildInfo(String gitCommit, String gitTreeState, String buildDate) {
    this.gitCommit = gitCommit;
    this.gitTreeState = gitTreeState;
    this.buildDate = buildDate;
  }

  /** The build information of this library, read once. */
  static BuildInfo current() {
    return CURRENT;
  }

  /**
   * Reads build information from the properties the build wrote, each checked: a value the build
   * could not find (an unresolved {@code ${...}}, an error's text, an empty value) becomes the
   * unknown value.
   */
  static BuildInfo of(Properties properties) {
    String commit = properties.getProperty("gitCommit", "").strip();
    String tree = properties.getProperty("gitTreeState", "").strip();
    String date = properties.getProperty("buildDate", "").strip();
    boolean knownCommit = COMMIT.matcher(commit).matches();
    boolean knownTree = knownCommit && (tree.equals("clean") || tree.equals("dirty"));
    return new BuildInfo(
        knownCommit ? commit : UNKNOWN,
        knownTree ? tree : UNKNOWN,
        rfc3339(date) ? date : UNKNOWN_DATE);
  }

  private static boolean rfc3339(String date) {
    try {
      OffsetDateTime.parse(date);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static BuildInfo read() {
    Properties properties = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + RESOURCE, e);
    }
    return of(properties);
  }

  /** The 40-digit commit the library was built from, or {@value #UNKNOWN}. */
  String gitCommit() {
    return gitCommit;
  }

  /** {@code clean}, {@code dirty} (changes not committed), or {@value #UNKNOWN}. */
  String gitTreeState() {
    return gitTreeState;
  }

  /** When it was built, in RFC 3339 in UTC, such as {@code 2026-11-28T13:50:47Z}. */
  String buildDate() {
    return buildDate;
  }
}
