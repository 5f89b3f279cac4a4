package dev.machinery.apiserver.audit;

import dev.machinery.MachineryException;
import dev.machinery.unversioned.validation.FieldError;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An audit policy that cannot be used: not YAML or JSON, not an {@code audit.k8s.io/v1 Policy}, or
 * invalid as kube-apiserver validates it. The message names the source and every problem with its
 * field path ({@code rules[2].level: Unsupported value: "Everything": supported values: "None",
 * ...}) or, for a document that cannot be read, its line and column.
 */
public final class AuditPolicyException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /** The problems, each with its field path. */
  private final transient List<FieldError> errors;

  /** The line of a syntax error, 1-based, or 0. */
  private final int line;

  /** The column of a syntax error, 1-based, or 0. */
  private final int column;

  AuditPolicyException(String source, List<FieldError> errors) {
    super(
        "invalid audit policy "
            + source
            + ": "
            + errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
    this.errors = List.copyOf(errors);
    this.line = 0;
    this.column = 0;
  }

  AuditPolicyException(String source, String problem, int line, int column, Throwable cause) {
    super(
        "invalid audit policy "
            + source
            + (line > 0 ? " at line " + line + ", column " + column : "")
            + ": "
            + problem,
        cause);
    this.errors = List.of();
    this.line = line;
    this.column = column;
  }

  /**
   * Returns the validation errors, each with its field path; empty when the document could not be
   * read at all.
   *
   * @return the errors
   */
  public List<FieldError> errors() {
    return errors;
  }

  /**
   * Returns the line of a syntax error, counted from 1, or 0 when the error has a field path
   * instead.
   *
   * @return the line
   */
  public int line() {
    return line;
  }

  /**
   * Returns the column of a syntax error, counted from 1, or 0 when the error has a field path
   * instead.
   *
   * @return the column
   */
  public int column() {
    return column;
  }
}
