package dev.machinery.client.config;

import dev.machinery.MachineryException;
import java.util.List;

/**
 * A configuration that cannot be used: a kubeconfig file that cannot be read or parsed, a context,
 * cluster or user that is missing, a field with an invalid value, a certificate or key that cannot
 * be read, or an exec credential plugin that failed. The message follows client-go's wording where
 * it has one; {@link #file()} and {@link #field()} name where the problem is, and {@link
 * #problems()} lists every problem when validation found several. Immutable once thrown, and then
 * safe to share between threads.
 */
public final class KubeconfigException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String field;
  private final List<String> problems;
  private final boolean emptyConfig;

  /** client-go's {@code ErrEmptyConfig}. */
  static final String EMPTY_CONFIG =
      "no configuration has been provided, try setting KUBERNETES_MASTER environment variable";

  /**
   * Creates an exception for one problem.
   *
   * @param file the file the problem is in, or an empty string when it is in no file (a
   *     programmatic configuration, the environment)
   * @param field the field, such as {@code users[alice].client-key}, or an empty string
   * @param message what is wrong
   */
  public KubeconfigException(String file, String field, String message) {
    this(file, field, message, (Throwable) null);
  }

  /**
   * Creates an exception for one problem with its cause.
   *
   * @param file the file the problem is in, or an empty string
   * @param field the field, or an empty string
   * @param message what is wrong
   * @param cause the underlying failure, or {@code null}
   */
  public KubeconfigException(String file, String field, String message, Throwable cause) {
    super(message, cause);
    this.file = file == null ? "" : file;
    this.field = field == null ? "" : field;
    this.problems = List.of(message);
    this.emptyConfig = false;
  }

  private KubeconfigException(
      String file, String field, String message, List<String> problems, boolean emptyConfig) {
    super(message);
    this.file = file == null ? "" : file;
    this.field = field == null ? "" : field;
    this.problems = List.copyOf(problems);
    this.emptyConfig = emptyConfig;
  }

  /**
   * Creates client-go's {@code ErrEmptyConfig}: no file, or no cluster in the chosen context.
   *
   * @return the exception, {@code invalid configuration: no configuration has been provided, ...}
   */
  static KubeconfigException emptyConfig() {
    return new KubeconfigException(
        "", "server", "invalid configuration: " + EMPTY_CONFIG, List.of(EMPTY_CONFIG), true);
  }

  /**
   * Creates the exception client-go's validation answers with: {@code invalid configuration: P} for
   * one problem, {@code invalid configuration: [P1, P2]} for several.
   *
   * @param file the file of the first problem, or an empty string
   * @param field the field of the first problem, or an empty string
   * @param problems the problems, at least one
   * @return the exception
   */
  static KubeconfigException invalid(String file, String field, List<String> problems) {
    String joined =
        problems.size() == 1 ? problems.get(0) : "[" + String.join(", ", problems) + "]";
    return new KubeconfigException(
        file, field, "invalid configuration: " + joined, problems, false);
  }

  /**
   * Returns the file the problem is in.
   *
   * @return the path as given or resolved, or an empty string when the problem is in no file
   */
  public String file() {
    return file;
  }

  /**
   * Returns the field the problem is in, such as {@code clusters[prod].server} or {@code
   * current-context}.
   *
   * @return the field, or an empty string when no single field is at fault
   */
  public String field() {
    return field;
  }

  /**
   * Whether there was no configuration at all, client-go's {@code IsEmptyConfig}: no kubeconfig
   * file was found, or the chosen context names no cluster. A caller may then try another source,
   * as {@link KubeconfigLoader#loadOrInCluster(InClusterConfig)} tries the pod's.
   *
   * @return true for an empty configuration
   */
  public boolean isEmptyConfig() {
    return emptyConfig;
  }

  /**
   * Returns every problem found; one unless validation found several.
   *
   * @return the problems' messages, unmodifiable
   */
  public List<String> problems() {
    return problems;
  }
}
