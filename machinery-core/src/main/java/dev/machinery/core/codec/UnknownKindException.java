package dev.machinery.core.codec;

import dev.machinery.core.runtime.NotRegisteredException;
import dev.machinery.core.schema.GroupVersionKind;

/**
 * Thrown when a document names a kind the scheme does not know, as Go's decoders return a
 * not-registered error. The message is the scheme's (it names what is registered nearby, with a
 * hint where the case of the kind is off); the cause is the scheme's {@link
 * NotRegisteredException}. Immutable and safe to share between threads.
 */
public final class UnknownKindException extends DecodeException {
  private static final long serialVersionUID = 1L;

  private final GroupVersionKind kind;

  /**
   * Creates the exception.
   *
   * @param kind the kind the document names
   * @param cause the scheme's exception, whose message this one repeats
   */
  public UnknownKindException(GroupVersionKind kind, NotRegisteredException cause) {
    super(cause.getMessage(), "kind", 0, 0, cause);
    this.kind = kind;
  }

  private UnknownKindException(UnknownKindException e, String where, int document) {
    super(e.located(where), e.fieldPath(), e.line(), e.column(), e, document);
    this.kind = e.kind;
  }

  @Override
  UnknownKindException in(String where, int document) {
    return new UnknownKindException(this, where, document);
  }

  /**
   * Returns the kind the document names.
   *
   * @return the kind
   */
  public GroupVersionKind kind() {
    return kind;
  }
}
