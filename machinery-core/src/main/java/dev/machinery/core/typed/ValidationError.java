package dev.machinery.core.typed;

/**
 * One way a value does not fit its type: where (the path as structured-merge-diff prints it, like
 * {@code .spec.containers[name="nginx"].image}; empty at the top) and what.
 *
 * @param path where the error is
 * @param message what is wrong
 */
public record ValidationError(String path, String message) implements java.io.Serializable {
  @Override
  public String toString() {
    return path.isEmpty() ? message : path + ": " + message;
  }
}
