package dev.machinery.core.codec;

import dev.machinery.MachineryException;
import java.util.List;

/**
 * Thrown when a document cannot be decoded: it is malformed, a value has the wrong type or is out
 * of range, the document breaks a {@link CodecLimits limit}, or it does not name its type.
 *
 * <p>The message says what was expected and what was found, and where: the field path (such as
 * {@code spec.replicas}) and, when known, the line and column. It never repeats more than a short,
 * escaped part of the input. Immutable and safe to share between threads.
 */
public class DecodeException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String fieldPath;
  private final int line;
  private final int column;
  private final int document;
  private transient List<Decoded<Object>> decodedBefore = List.of();

  /**
   * Creates the exception.
   *
   * @param message the full message
   * @param fieldPath the path of the offending field, empty for the document itself
   * @param line the 1-based line, or 0 when unknown
   * @param column the 1-based column, or 0 when unknown
   * @param cause the underlying failure, or {@code null}
   */
  public DecodeException(String message, String fieldPath, int line, int column, Throwable cause) {
    this(message, fieldPath, line, column, cause, 0);
  }

  /**
   * Creates the exception, for a subtype that copies itself into a document of a stream.
   *
   * @param message the full message
   * @param fieldPath the path of the offending field, empty for the document itself
   * @param line the 1-based line, or 0 when unknown
   * @param column the 1-based column, or 0 when unknown
   * @param cause the underlying failure, or {@code null}
   * @param document the 1-based index of the document in its stream, or 0
   */
  protected DecodeException(
      String message, String fieldPath, int line, int column, Throwable cause, int document) {
    super(message, cause);
    this.fieldPath = fieldPath == null ? "" : fieldPath;
    this.line = line;
    this.column = column;
    this.document = document;
  }

  /**
   * Returns the same failure as it stands at {@code where} (such as {@code document 2 of 3}) of a
   * stream: the message starts with {@code where: } and the type is kept.
   */
  DecodeException in(String where, int document) {
    return new DecodeException(located(where), fieldPath(), line(), column(), this, document);
  }

  String located(String where) {
    return where + ": " + getMessage();
  }

  /**
   * Creates the exception with no location.
   *
   * @param message the full message
   * @param fieldPath the path of the offending field, empty for the document itself
   */
  public DecodeException(String message, String fieldPath) {
    this(message, fieldPath, 0, 0, null);
  }

  /**
   * Returns the path of the offending field, such as {@code spec.template.spec.containers[0]};
   * empty when the problem is with the document as a whole.
   *
   * @return the path
   */
  public String fieldPath() {
    return fieldPath;
  }

  /**
   * Returns the 1-based line of the problem.
   *
   * @return the line, or 0 when unknown
   */
  public int line() {
    return line;
  }

  /**
   * Returns the 1-based column of the problem.
   *
   * @return the column, or 0 when unknown
   */
  public int column() {
    return column;
  }

  /**
   * Returns the 1-based index of the failing document in a multi-document stream.
   *
   * @return the index, or 0 when the input held one document
   */
  public int document() {
    return document;
  }

  /**
   * Returns the objects of the same stream that decoded before this failure, in order: what a
   * caller applying a multi-document manifest had read when the stream went bad.
   *
   * @return the objects, empty when the failure was in the first object or not in a stream
   */
  public List<Decoded<Object>> decodedBefore() {
    return decodedBefore == null ? List.of() : decodedBefore;
  }

  /** Sets the objects decoded before the failure; called once, before the exception is thrown. */
  DecodeException withDecodedBefore(List<Decoded<Object>> decoded) {
    this.decodedBefore = List.copyOf(decoded);
    return this;
  }
}
